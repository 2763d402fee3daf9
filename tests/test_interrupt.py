"""Ctrl-C and SIGTERM stop a run at any moment: one line, exit status 130, no file, no traceback."""

import os
import signal
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.slow  # subprocesses that compile afresh: out of the fast tier

POCHA = [sys.executable, "-m", "pocha"]
INSIDE_THE_CALLBACK = textwrap.dedent(
    """
    import signal, sys, time
    import numba
    from numba.core import codegen
    from pocha.interrupt import interruptible

    notify = codegen.JITCodeLibrary._object_compiled_hook.__func__

    pressed = []

    def interrupted(cls, ll_module, buf):  # LLVM calls back into Python here, through ctypes
        if not pressed:  # one Ctrl-C, in the first object compiled (a kernel may compile several)
            pressed.append(True)
            signal.raise_signal(signal.SIGINT)
        return notify(cls, ll_module, buf)

    codegen.JITCodeLibrary._object_compiled_hook = classmethod(interrupted)

    def plus_one(x):
        return x + 1

    with interruptible():
        try:
            result = numba.njit(cache=True)(plus_one)(1)
            time.sleep(1)  # the signal asked again a moment later lands here, however busy the machine
            print("ran on:", result)
        except KeyboardInterrupt:
            print("stopped")
    """
)


def fresh_caches(tmp_path) -> dict[str, str]:
    """The environment of a first run: nothing compiled, no trick table learned."""
    return dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), POCHA_CACHE_DIR=str(tmp_path / "pocha"))


def started(args, tmp_path, env=None) -> subprocess.Popen:
    return subprocess.Popen(
        [*POCHA, *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not ignored, as in a terminal
    )


def assert_stopped(process: subprocess.Popen, lines: list[str]) -> str:
    """Exit status 130, and after any earlier notes one line that says what became of the run; its stdout."""
    out, err = process.communicate()
    lines = lines + err.splitlines()
    assert process.returncode == 130, lines
    assert lines[-1].startswith("Interrupted: "), lines
    assert not any("Traceback" in line or "Exception ignored" in line for line in lines), lines
    assert all(line.startswith(("compiling ", "this run will take ", "progress: ")) for line in lines[:-1]), lines
    return out


def test_a_signal_inside_numbas_compiler_callback_is_delivered_after_it(tmp_path):
    """Python's own handler raises inside llvmlite's ctypes callback, where the exception is dropped."""
    script = tmp_path / "compile.py"  # a file: numba caches only what it can locate
    script.write_text(INSIDE_THE_CALLBACK)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    ran = subprocess.run([sys.executable, script], capture_output=True, text=True, env=env)
    assert ran.stdout == "stopped\n" and "Exception ignored" not in ran.stderr, ran.stderr


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_the_first_compile_stops_in_one_line(stop, tmp_path):
    args = ["compare", "expected", "random", "-n", "200000", "--out", "cmp"]
    process = started(args, tmp_path, fresh_caches(tmp_path))
    before = []  # progress lines (the run's 0 deals) may come first on a busy machine
    while (said := process.stderr.readline()).startswith("progress: "):
        before.append(said.rstrip("\n"))
    assert said.startswith("compiling "), said + process.communicate()[1]  # the word of a first compile
    process.send_signal(stop)
    assert assert_stopped(process, [*before, said.rstrip("\n")]) == ""  # no deal finished: no table of nothing
    assert not (tmp_path / "cmp").exists()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_run_writes_no_file(stop, tmp_path):
    """A long run on one thread: its estimate comes once its first deals are timed, and the run goes on."""
    args = ["simulate", "-n", "100000000", "-s", "random", "--play", "random", "--threads", "1", "--out", "run"]
    process = started(args, tmp_path)
    lines = []
    while not (line := process.stderr.readline()).startswith("this run will take "):
        assert line, lines + [process.communicate()[1]]
        lines.append(line.rstrip("\n"))
    process.send_signal(stop)
    assert_stopped(process, [*lines, line.rstrip("\n")])
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_modules_load_stops_in_one_line(stop, tmp_path):
    """Before any kernel is compiled or loaded: Python notes each module imported (-X importtime) on stderr."""
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
    process = started(["advise", "--hand", "1O 3O 12C 5E 2B", "--trump", "4O"], tmp_path, env)
    while (line := process.stderr.readline()).split("|")[-1].strip() != "numba":  # numba is loaded, pocha next
        assert line, process.communicate()
    process.send_signal(stop)
    out, err = process.communicate()
    lines = [line for line in err.splitlines() if not line.startswith("import time:")]
    assert process.returncode == 130 and lines == ["Interrupted: nothing was written."], err[-2000:]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize(
    "asked",
    [
        ["--samples", "200000"],
        ["--bids", "2,2,0,1", "--played", "", "--samples", "100000"],  # card advice
    ],
)
def test_a_signal_during_advice_stops_it_at_once(asked, stop, tmp_path):
    """Long advice says how far it is (in a pipe, whole lines), and a signal stops it within a piece of its play-outs.

    Issue 46: ``advise --samples 1000000`` went on for 549 s after a Ctrl-C, and said nothing meanwhile.
    """
    hand = ["--hand", "1O 3O 12C 5E 2B 7B 1C 3C 12O 11O", "--trump", "7O"]
    process = started(["advise", *hand, *asked], tmp_path)
    lines = []
    while not (line := process.stderr.readline()).startswith("progress: ") or " (0 of " in line:
        assert line, lines + [process.communicate()[1]]  # the advice ended without a line of its progress
        lines.append(line.rstrip("\n"))
    process.send_signal(stop)
    assert assert_stopped(process, [*lines, line.rstrip("\n")]) == ""
