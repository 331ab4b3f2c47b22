"""The benchmark script runs (quick mode) and reports every figure in its stated format.

It asserts the format and that the measured work happened, not the speeds: speed is the
benchmark's business, with targets, on a quiet machine (README "Performance").
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINE = re.compile(r"^(\S+) (-?[0-9.e+]+) (\S*) ?(\S+) (met|missed|-)$")


@pytest.mark.slow
def test_quick_benchmarks_report_every_figure():
    out = subprocess.run([sys.executable, "benchmarks/run.py", "--quick"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = [ln for ln in out.stdout.splitlines() if ln and not ln.startswith("#")]
    names = {ln.split()[0] for ln in lines}
    for ln in lines:
        assert LINE.match(ln), ln
    for needed in ("ingest_sqlite_batched", "ingest_sqlite_single", "ingest_sqlite_lmtp_8_at_once", "ingest_floor", "scale_pass_resolve_100_phases", "scale_daemon_rss",
                   "idle_daemon_cpu", "latency_last_orders_to_outbox_median"):
        assert needed in names, needed
    for ruleset in ("bismarck", "lew_morski", "sky_ww2"):
        assert f"{ruleset}_phase_median" in names and f"{ruleset}_growth_exponent" in names


def test_the_growth_chart_is_a_picture_of_the_curves():
    import io

    from PIL import Image

    import importlib.util

    spec = importlib.util.spec_from_file_location("pbem_benchmarks_run", ROOT / "benchmarks" / "run.py")
    run = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = run  # its dataclasses look themselves up there
    spec.loader.exec_module(run)
    png = run.chart({"a": [(2, 5.0), (4, 9.0)], "b": [(10, 35.0)]})
    img = Image.open(io.BytesIO(png))
    assert img.size == (640, 360)
    colours = {c for _, c in img.convert("RGB").getcolors(10_000)}
    assert (0x1f, 0x5f, 0xa8) in colours and (0x2e, 0x8b, 0x3a) in colours  # one colour per ruleset drawn
