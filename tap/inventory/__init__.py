"""The hook inventory (`hooktui hooks`) and dry runs (`hooktui try`): every configured hook
as its runtime reads it."""
