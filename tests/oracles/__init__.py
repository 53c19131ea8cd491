"""Reference implementations kept as test oracles: simple, slow, obviously right versions of
code that was made fast (rules/declared.py's candidate search with bit lanes and big-integer
masks, the code index's bracket matching and argument splitting from bracket depths).

They read plain lists of (kind, text) pairs, never the project's token types, so they
survive changes to the token API; tests/oracles/adapter.py is the one place that turns a
source into those lists and calls the fast code. tests/test_oracles.py checks that the fast
code agrees with them on hypothesis token soups, every source file under tests/ and the
bench corpus generator's output."""
