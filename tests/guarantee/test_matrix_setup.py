"""The guarantee matrix: the conditions of family `setup` (tests/guarantee/test_forms.py)."""

from tests.guarantee.matrix import family_test

test_cell = family_test("setup")
