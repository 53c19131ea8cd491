"""`hipport tables`: look things up in the mapping tables."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import click

from hipport.cli import SuggestingGroup
from hipport.cli.options import _version, target_from, target_options

# every tables subcommand prints text for people or JSON for scripts
format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)


@click.group(cls=SuggestingGroup)
def tables() -> None:
    """Query the CUDA-to-HIP mapping tables (HIPIFY's tables, versioned by ROCm release)."""


def _load():
    from hipport.tables import load_tables

    return load_tables()


def _console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True, emoji=False)


@tables.command()
@click.argument("name")
@target_options
@format_option
def show(name: str, fmt: str, **target_values: Any) -> int | None:
    """Show one entry, looked up by its CUDA name, its HIP name or a hipExt name, with every
    version column, what it resolves to for the target, where the releases show its HIP
    name (header:line in HIP 5.2 and 6.3, hip-python; or that no evidence covers it), and
    the argument rewrites that apply to its calls; or the rule for a CUDA namespace (cub,
    cuda, thrust, ...)."""
    from hipport.mappings import load_mappings
    from hipport.tables import resolve
    from hipport.tables.arguments import namespace_rule, rewrites_for

    mappings = load_mappings()
    tbl = mappings.tables
    target = target_from(target_values)
    rows = tbl.find(name)
    ext = tbl.hipext.get(name)
    namespace = namespace_rule(mappings.arguments, name)
    if not rows and ext is None and namespace is None:
        close = _close_names(tbl, name)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        click.echo(
            f"hipport: {name!r} is not in the tables.{hint} "
            f"(try: hipport tables search {name[:6]})",
            err=True,
        )
        return 1
    entries = []
    for row in rows:
        res = resolve(tbl, row.cuda, target)
        entry = row.to_dict()
        entry["resolution"] = {
            "target_rocm": str(target.rocm or tbl.newest_rocm),
            "status": res.status.value,
            "new_name": res.new_name,
            "min_rocm": str(res.min_rocm) if res.min_rocm else None,
            "condition": res.condition,
            "reason": res.reason(),
            "hipext_alternatives": [a.name for a in res.alternatives],
            # alternatives.tsv: an exact one is the row's mapping (its evidence says so)
            "alternative": res.substitute.text() if res.substitute else None,
            "alternative_evidence": res.substitute.evidence if res.substitute else None,
        }
        entry["release_evidence"] = _release_evidence(tbl, row, res.new_name or row.hip)
        entry["argument_rewrites"] = rewrites_for(
            mappings.tables, mappings.arguments, row.cuda, target
        )
        entries.append(entry)
    ext_entry = _ext_dict(ext) if ext else None
    if fmt == "json":
        out = {"entries": entries, "hipext": ext_entry, "namespace": namespace}
        click.echo(json.dumps(out, indent=2))
        return
    console = _console()
    for entry in entries:
        rewrites = entry.pop("argument_rewrites")
        _print_entry(console, entry)
        for n, rw in enumerate(rewrites, 1):
            state = "applies" if rw["applies"] else "does not apply"
            console.print(f"  argument rewrite {n}: {rw['rewrite']} ({state}: {rw['why']})")
    if namespace:
        _print_entry(console, namespace, title=f"namespace {namespace['namespace']}::")
    if ext_entry:
        _print_entry(console, ext_entry, title=f"{ext_entry['name']} (AMD extension)")


# evidence.tsv's key columns (the entry shows them already); the others are printed
_EVIDENCE_KEY = ("cuda", "family", "hip", "table_added")


def _release_evidence(tbl, row, hip: str | None) -> dict[str, Any] | None:
    """Where the releases show the HIP name a row maps to (mappings/evidence.tsv), or that
    no evidence covers it."""
    if not hip:
        return None
    found = tbl.release_evidence(row._replace(hip=hip))
    if found is None or found["status"] == "none":
        return {
            "status": "none",
            "note": f"no evidence covers {hip}: the sources read (Debian's HIP 5.2 headers: "
            "hip/, hiprand/, hipsparse/; the HIP 6.3 runtime headers; hip-python 6.2.0 ... "
            "7.2.2; the HIP header scan) do not show it, so its release is the tables' (or "
            "a reviewed override's) alone",
        }
    out: dict[str, Any] = {k: v or None for k, v in found.items() if k not in _EVIDENCE_KEY}
    if found["status"] == "builtin":
        out["note"] = f"{hip} is a C++ type, not a name a header declares"
    return out


def _close_names(tbl, name: str) -> list[str]:
    """The table names nearest a mistyped one (CUDA, HIP and hipExt names)."""
    import difflib

    names = {r.cuda for r in tbl.rows} | {r.hip for r in tbl.rows if r.hip} | set(tbl.hipext)
    return difflib.get_close_matches(name, sorted(names), n=3, cutoff=0.8)


def _ext_dict(ext) -> dict[str, Any]:
    return {
        "name": ext.name,
        "kind": ext.kind,
        "rocm_added": str(ext.rocm_added),
        "rocm_last_seen": str(ext.rocm_last_seen),
        "signature": ext.signature,
        "stands_in_for": ext.stands_in_for,
        "cuda_apis": list(ext.cuda_apis),
        "note": ext.note,
    }


def _print_entry(console, entry: dict[str, Any], title: str | None = None) -> None:
    from rich.table import Table

    table = Table(
        title=title or f"{entry['cuda']} ({entry['family']})",
        show_header=False,
        title_justify="left",
    )
    table.add_column("field", style="bold")
    table.add_column("value")
    for key, value in entry.items():
        if isinstance(value, dict):
            for sub, subvalue in value.items():
                table.add_row(f"{key}.{sub}", _text(subvalue))
        else:
            table.add_row(key, _text(value))
    console.print(table)


def _text(value: Any) -> str:
    if value is None or value == "":
        return "-"
    if isinstance(value, list):
        return ", ".join(value) or "-"
    return str(value)


@tables.command()
@format_option
def releases(fmt: str) -> None:
    """The ROCm releases the tables know, each in its line (production, or AMD's
    technology-preview line), the CUDA releases, and the default target (the newest
    production ROCm release)."""
    landscape = _load().landscape
    data = {
        "default_rocm": str(landscape.default_rocm),
        "newest_cuda": str(landscape.newest_cuda),
        "rocm": [_release_dict(r) for r in landscape.rocm],
        "cuda": [_release_dict(r) for r in landscape.cuda],
    }
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
        return
    for product, name in (("rocm", "ROCm"), ("cuda", "CUDA")):
        click.echo(f"{name} releases:")
        for r in data[product]:
            mark = (
                "  (default target)"
                if product == "rocm" and r["version"] == data["default_rocm"]
                else ""
            )
            click.echo(f"  {r['version']:<8} {r['line']:<11} {', '.join(r['sources'])}{mark}")


def _release_dict(release) -> dict[str, Any]:  # a hipport.target.Release
    return {
        "version": str(release.version),
        "line": release.line,
        "sources": list(release.sources),
    }


@tables.command()
@target_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "csv", "markdown"]),
    default="text",
    show_default=True,
    help="Output format.",
)
def coverage(fmt: str, **target_values: Any) -> None:
    """Per family: total entries and how many are mapped, unsupported, experimental or need a
    newer ROCm than --rocm."""
    from hipport.tables.queries import COVERAGE_KEYS
    from hipport.tables.queries import coverage as compute

    tbl = _load()
    target = target_from(target_values)
    rows = [c.to_dict() for c in compute(tbl, target)]
    columns = ["family", "total", *COVERAGE_KEYS]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
    elif fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        click.echo(out.getvalue(), nl=False)
    elif fmt == "markdown":
        click.echo("| " + " | ".join(columns) + " |")
        click.echo("|" + "|".join([":--"] + ["--:"] * (len(columns) - 1)) + "|")
        for row in rows:
            click.echo("| " + " | ".join(str(row[c]) for c in columns) + " |")
    else:
        from rich.table import Table

        rocm = target.rocm or tbl.newest_rocm
        table = Table(title=f"Coverage for ROCm {rocm}", title_justify="left")
        for column in columns:
            table.add_column(column, justify="left" if column == "family" else "right")
        for row in rows:
            table.add_row(*(str(row[c]) for c in columns))
        totals = {c: sum(r[c] for r in rows) for c in columns[1:]}
        table.add_row("all", *(str(totals[c]) for c in columns[1:]), style="bold")
        _console().print(table)


@tables.command()
@click.option(
    "--from",
    "older",
    required=True,
    metavar="VERSION",
    callback=_version,
    help="The older ROCm release.",
)
@click.option(
    "--to",
    "newer",
    required=True,
    metavar="VERSION",
    callback=_version,
    help="The newer ROCm release.",
)
@click.option("--family", "families", multiple=True, help="Only these families (repeatable).")
@format_option
@target_options
def diff(older, newer, families: tuple[str, ...], fmt: str, **target_values: Any) -> None:
    """What changed between two ROCm releases: entries that became available, were removed
    or renamed (history.tsv), each with the HIP name the --to release has."""
    from hipport.tables.queries import diff as compute

    if older > newer:
        raise click.BadParameter("--from must not be newer than --to", param_hint="--from")
    tbl = _load()
    target = target_from(target_values)
    changes = [
        c
        for c in compute(tbl, older, newer, target)
        if not families or c.mapping.family in families
    ]
    records = [
        {
            "cuda": c.mapping.cuda,
            "family": c.mapping.family,
            # the name at --to (at --from when --to has none)
            "hip": c.hip_after or c.hip_before,
            "hip_before": c.hip_before,
            "hip_added": str(c.mapping.hip_added) if c.mapping.hip_added else None,
            "before": c.before.value,
            "after": c.after.value,
        }
        for c in changes
    ]
    if fmt == "json":
        click.echo(json.dumps(records, indent=2))
        return
    console = _console()
    console.print(f"{len(records)} entries change status from ROCm {older} to ROCm {newer}")
    for r in records:
        renamed = (
            f", was {r['hip_before']}"
            if r["hip_before"] and r["hip"] and r["hip_before"] != r["hip"]
            else ""
        )
        console.print(
            f"{r['family']:8} {r['cuda']} -> {r['hip'] or '-'}  "
            f"({r['before']} -> {r['after']}{renamed}, HIP added {r['hip_added'] or '-'})"
        )


@tables.command()
@click.argument("pattern")
@format_option
@click.option("--limit", type=int, default=200, show_default=True, help="At most this many.")
def search(pattern: str, fmt: str, limit: int) -> int | None:
    """Find entries whose CUDA, HIP or ROC name matches PATTERN: a case-insensitive substring,
    a glob (cudaMemcpy*), or a regular expression (^cuda.*Async$)."""
    from hipport.tables.queries import search as compute

    rows, exts = compute(_load(), pattern)
    records = [
        {
            "cuda": r.cuda,
            "family": r.family,
            "kind": r.kind,
            "hip": r.hip,
            "hip_added": str(r.hip_added) if r.hip_added else None,
            "roc": r.roc,
        }
        for r in rows[:limit]
    ]
    ext_records = [_ext_dict(e) for e in exts]
    if fmt == "json":
        click.echo(
            json.dumps({"entries": records, "hipext": ext_records, "total": len(rows)}, indent=2)
        )
        return
    for r in records:
        click.echo(
            f"{r['family']:8} {r['cuda']:45} {r['hip'] or '(unsupported)':45} "
            f"{r['hip_added'] or ''}"
        )
    for e in ext_records:
        click.echo(f"{'hipext':8} {e['name']:45} {'(AMD extension)':45} {e['rocm_added']}")
    if len(rows) > limit:
        click.echo(f"... {len(rows) - limit} more (use --limit)")
    if not rows and not exts:
        click.echo(f"no entry matches {pattern!r}", err=True)
        return 1
