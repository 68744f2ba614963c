import importlib.util
import random
import types
import unittest

from wakeful_sdk.seeding import defer_seeding


def fresh_random():
    """A private copy of the `random` module, so that the tests never
    change the one the rest of the process uses."""
    spec = importlib.util.find_spec("random")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class DeferredSeedingTest(unittest.TestCase):
    def test_a_seed_without_argument_is_taken_at_the_first_draw(self):
        module = fresh_random()
        self.assertTrue(defer_seeding(module))
        module.seed(7)
        baked = module.getstate()
        # What the instance would draw without a fresh seed.
        stale = random.Random()
        stale.setstate(baked)
        stale_draws = [stale.random() for _ in range(4)]

        module.seed()
        self.assertEqual(module._inst.getstate(), baked, "nothing is seeded before a draw")
        draws = [module.random() for _ in range(4)]
        self.assertNotEqual(draws, stale_draws, "the first draw seeded from the OS")
        self.assertNotEqual(module._inst.getstate(), baked)

    def test_every_function_of_the_module_seeds_first(self):
        module = fresh_random()
        self.assertTrue(defer_seeding(module))
        for draw in (
            lambda: module.choice(range(1 << 30)),
            lambda: module.getrandbits(64),
            lambda: module.randint(0, 1 << 60),
            lambda: module.sample(range(1 << 30), 2),
            lambda: module.uniform(0, 1),
            lambda: module.getstate(),
        ):
            module.seed(7)
            baked = module._inst.getstate()
            module.seed()
            draw()
            self.assertNotEqual(module._inst.getstate()[1][:8], baked[1][:8], draw)

    def test_an_explicit_seed_and_state_are_kept_as_given(self):
        module = fresh_random()
        self.assertTrue(defer_seeding(module))
        module.seed()
        module.seed(42)
        self.assertEqual(module.random(), random.Random(42).random())
        state = random.Random(5).getstate()
        module.seed()
        module.setstate(state)
        self.assertEqual(module.random(), random.Random(5).random(), "setstate cancels a due seed")

    def test_a_function_held_from_before_keeps_seeding_eager(self):
        module = fresh_random()
        # Another module's globals after `from random import choice`.
        other = {"choice": module.choice}
        self.assertFalse(defer_seeding(module))
        self.assertIs(module.choice, other["choice"], "nothing was wrapped")
        module.seed(7)
        baked = module.getstate()
        module.seed()
        self.assertNotEqual(module.getstate(), baked, "seed() seeds at once")

    def test_a_method_bound_apart_keeps_seeding_eager(self):
        module = fresh_random()
        other = {"draw": module._inst.random}
        self.assertFalse(defer_seeding(module))
        self.assertIsInstance(module.random, types.BuiltinMethodType, "nothing was wrapped")


if __name__ == "__main__":
    unittest.main()
