"""Helpers the check and report tests share: sources through the engine into a Report.
A support module, not a test file (like reliability_support.py), so pytest collects
nothing here."""

from __future__ import annotations

from hipport.engine import EngineOptions, TranslationResult, translate_source
from hipport.report.model import Report, build_report
from hipport.target import Target


def translate(
    source: bytes | str,
    path: str = "src/a.cu",
    target: Target | None = None,
    options: EngineOptions | None = None,
) -> TranslationResult:
    data = source.encode() if isinstance(source, str) else source
    if path.endswith(("CMakeLists.txt", ".cmake")):
        from hipport.cmake import translate_cmake

        cm = translate_cmake(data, path)
        return TranslationResult(path, data, cm.output, cm.edits, cm.findings)
    return translate_source(data, path, target or Target(), options)


def report_of(
    files: dict[str, bytes | str],
    target: Target | None = None,
    options: EngineOptions | None = None,
    **kwargs,
) -> Report:
    target = target or Target()
    results = [translate(src, path, target, options) for path, src in files.items()]
    return build_report(results, target, **kwargs)


def codes(report: Report) -> set[str]:
    return {f.code for f in report.findings}
