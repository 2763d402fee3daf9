"""report.html in a real browser: headless Chromium loads it, every figure decodes and shows, no console error.

A small script added to a copy of the page reports what the browser laid out; ``--dump-dom`` prints
the page after it ran. Screenshots at phone and desktop widths are saved in the test's folder
(``pytest --basetemp=DIR`` keeps them). Skipped, saying why, only where no Chromium can be had
(``.ci/run`` installs Debian's ``chromium``).
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import pocha

BROWSER = next((path for name in ("chromium", "chromium-browser") if (path := shutil.which(name))), None)
CHECK = """<script>
window.addEventListener("load", () => {
  const images = [...document.images].map((image) => {
    const box = image.getBoundingClientRect();
    return {alt: image.alt, decoded: image.complete && image.naturalWidth > 0, width: box.width, height: box.height};
  });
  const out = document.createElement("pre");
  out.id = "pocha-check";
  const scrolled = [...document.querySelectorAll(".scroll")].filter((box) => box.scrollWidth > box.clientWidth + 1);
  out.textContent = JSON.stringify(
    {images, wide: document.documentElement.scrollWidth > window.innerWidth + 1, scrolled: scrolled.length}
  );
  document.body.appendChild(out);
});
</script>"""
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--virtual-time-budget=10000",
    "--enable-logging=stderr",
    "--v=0",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(BROWSER is None, reason="no Chromium here (Debian: apt-get install chromium)"),
]


def browse(page: Path, profile: Path, *extra: str) -> subprocess.CompletedProcess:
    """Run headless Chromium on a local page."""
    command = [BROWSER, *FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def check_in_browser(folder: Path, tmp_path: Path, sentence: str, width: int = 1200) -> dict:
    """The page's state as the browser laid it out at ``width`` pixels (figures checked, screenshots saved)."""
    page = folder / "report.html"
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text().replace("</body>", CHECK + "</body>"))
    shown = browse(probe, tmp_path / "profile", f"--window-size={width},900", "--dump-dom")
    assert shown.returncode == 0, shown.stderr[-2000:]
    found = re.search(r'<pre id="pocha-check">(.*?)</pre>', shown.stdout, re.S)
    assert found, shown.stdout[-2000:]
    state = json.loads(found.group(1).replace("&quot;", '"'))
    assert state["images"] and all(i["decoded"] and i["width"] > 0 and i["height"] > 0 for i in state["images"]), state
    console = [line for line in shown.stderr.splitlines() if "CONSOLE" in line]
    assert console == [], console
    assert sentence in re.sub(r"<[^>]+>", "", shown.stdout)
    for name, size in (("phone", "390,2400"), ("desktop", "1200,2400")):
        shot = tmp_path / f"report-{folder.name}-{name}.png"
        browse(page, tmp_path / f"profile-{name}", f"--window-size={size}", f"--screenshot={shot}")
        assert shot.is_file() and shot.stat().st_size > 10_000
    return state


def test_a_compare_report_in_a_browser(tmp_path):
    folder = tmp_path / "compare"
    pocha.compare(["expected", "random"], cards=[2, 5], deals=400, out=folder)
    pocha.report(folder)
    check_in_browser(folder, tmp_path, "expected ahead of random by")


def test_a_game_report_in_a_browser(tmp_path):
    folder = tmp_path / "game"
    pocha.play_games(["expected", "zero", "random", "fair-share"], games=60, out=folder)
    pocha.report(folder)
    check_in_browser(folder, tmp_path, "won the most games")


def test_a_report_of_predictions_in_a_browser(tmp_path):
    folder = tmp_path / "predictions"
    pocha.simulate(["table", "expected", "zero", "random"], cards=[2, 5], deals=400, predictions=True, out=folder)
    pocha.report(folder)
    check_in_browser(folder, tmp_path, "What each predicting strategy expected of its bids")


def test_a_variants_report_scrolls_no_table_sideways_at_1400_px(tmp_path):
    """issue 34: the rules table of the default study, its rules in words on one line, scrolled at 1,400 px."""
    folder = tmp_path / "variants"
    pocha.variants(strong="expected", weak="zero", games=40, out=folder)
    pocha.report(folder)
    state = check_in_browser(folder, tmp_path, "Skill pays most under", width=1400)
    assert state["scrolled"] == 0 and not state["wide"], state
