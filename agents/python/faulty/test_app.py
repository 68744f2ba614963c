import unittest

from wakeful_sdk import Start, testing

from app import Faulty, plan_action


class FaultyTest(unittest.TestCase):
    def setUp(self):
        testing.reset()

    def test_its_own_error_names_the_plan(self):
        with self.assertRaisesRegex(ValueError, "the plan has no action"):
            plan_action({"reason": "memory"})

    def test_without_a_failure_it_is_done(self):
        step = Faulty().step(None, Start(input={}))
        self.assertEqual(step.next.outcome, "nothing failed")

    def test_a_draw_keeps_its_numbers(self):
        step = Faulty().step(None, Start(input={"draw": True}))
        first, bits = step.new_state["draws"]
        self.assertTrue(0 <= first < 1)
        self.assertTrue(0 <= bits < 1 << 64)


if __name__ == "__main__":
    unittest.main()
