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


if __name__ == "__main__":
    unittest.main()
