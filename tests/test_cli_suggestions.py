"""A mistyped subcommand or table name gets "did you mean"; `tables` answers scripts in
JSON."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from hipport.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize(
    "args,expected",
    [
        (["chek", "."], "Did you mean 'check' or 'cache'?"),  # nearest first
        (["tabels"], "Did you mean 'tables'?"),
        (["transalte"], "Did you mean 'translate'?"),
        (["tables", "shwo", "cudaMalloc"], "Did you mean 'show'?"),
        (["tables", "coverge"], "Did you mean 'coverage'?"),
    ],
)
def test_mistyped_subcommand(args, expected):
    result = run(*args)
    assert result.exit_code == 2
    typo = args[1] if args[0] == "tables" else args[0]
    assert f"No such command {typo!r}" in result.output
    assert expected in result.output


def test_nothing_close_is_not_guessed():
    result = run("xyzzy")
    assert result.exit_code == 2 and "Did you mean" not in result.output


def test_mistyped_table_name():
    result = CliRunner().invoke(main, ["tables", "show", "cudaMaloc"])
    assert result.exit_code == 1
    assert "Did you mean cudaMalloc" in result.output


@pytest.mark.parametrize(
    "args,key",
    [
        (["tables", "show", "cudaMalloc"], "entries"),
        (["tables", "search", "cudaMemcpy*Async"], "entries"),
        (["tables", "coverage"], None),
    ],
)
def test_tables_json_for_scripts(args, key):
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    rows = data[key] if key else data
    assert rows, data
