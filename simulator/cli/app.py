"""How pocha's commands run in a terminal: the Typer app, its help, Ctrl-C, errors and progress.

The app and its help as people write commands, a user's mistake as one line, Ctrl-C as exit 130,
word of a first compile, progress (``pocha.cli.progress``), and the command line a run records.

``pocha.cli.commands`` holds the commands themselves; this module is what they share around them.
"""

import contextlib
import shlex
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, NoReturn

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from pocha.cli.progress import ProgressBar, ProgressLines, progress_shown
from pocha.errors import PochaError
from pocha.interrupt import interruptible
from pocha.words import compile_notice

ARGUMENTS = "pocha.arguments"  # the key of ``click.Context.meta`` under which the group notes its arguments


class Commands(TyperGroup):
    """The command group: notes the arguments it is run with (for the command line a run records), stops on Ctrl-C."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        """Parse the arguments as usual, noting them in the context's ``meta`` (shared with the command's)."""
        context = super().make_context(info_name, list(args), parent, **extra)  # parsing takes from the list
        context.meta[ARGUMENTS] = args
        return context

    def invoke(self, ctx: Any) -> Any:
        """Run the command; Ctrl-C or SIGTERM before it has results to show is one line and exit status 130."""
        try:
            with interruptible():
                return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted("nothing was written")


def interrupted(what: str, *then: str) -> NoReturn:
    """End a command stopped by Ctrl-C or SIGTERM: ``Interrupted: WHAT.`` on stderr, ``then`` lines, exit status 130.

    The one place every command says it: what it shows or kept of the run, or that nothing was written.
    """
    for line in (f"Interrupted: {what}.", *then):
        typer.echo(line, err=True)
    raise typer.Exit(130)


NOT_A_NUMBER = "Input should be a valid"  # typer's words for a value its int or float option cannot read


def given_to(opts: list[str], args: list[str]) -> str:
    """The word given to an option on the command line (``-n 1e6``, ``--deals=1e6``, ``-n1e6``): the last one."""
    found = ""
    for before, arg in zip(["", *args], args, strict=False):
        if before in opts:
            found = arg
        for opt in opts:
            if arg.startswith(opt) and arg != opt:
                found = arg.removeprefix(opt).removeprefix("=")
    return found


def argument_name(argument: TyperArgument) -> str:
    """An argument as help shows it: its metavar, in brackets if optional, ``...`` if it takes several."""
    name = argument.metavar or str(argument.name).upper()
    name = name if argument.required else f"[{name}]"
    return name + ("..." if argument.nargs != 1 else "")


AMOUNTS = ("-n", "--deals", "-g", "--games")  # how much a command plays, as one command or another names it
COUNTED = {"--deals": "deals", "--games": "whole games"}
CLICK_ERRORS = sys.modules[typer.BadParameter.__module__]  # click's exceptions, as typer raises them (its own copy)
NoSuchOption, UsageError = CLICK_ERRORS.NoSuchOption, CLICK_ERRORS.UsageError
EXTRA = "Got unexpected extra argument"  # click's words for words a command takes no argument for


def strategy_hint(error: Any, params: list[Any], given: list[str]) -> Any:
    """Click's error for extra words, with a pointer to ``-s`` where the command takes strategies so (``simulate``).

    ``compare`` takes its strategies as arguments, so ``pocha simulate expected`` is a newcomer's guess.
    """
    takes = any("--strategy" in getattr(param, "opts", ()) for param in params)
    extra = [word for word in given if f"({word}" in str(error.message)]
    if not str(error.message).startswith(EXTRA) or not takes or not extra:
        return error
    message = f"{error.message}: this command takes strategies with -s/--strategy (-s {extra[0]})"
    return UsageError(message, ctx=error.ctx)


def amount_hint(error: Any, params: list[Any]) -> Any:
    """Typer's error for an unknown option; for another command's amount (``game -n``), the one this command takes.

    click's "Possible options" offered ``--full-deals`` for ``game --deals``: a rule, not an amount.
    """
    own = next((param for param in params if set(getattr(param, "opts", ())) & COUNTED.keys()), None)
    if error.option_name not in AMOUNTS or own is None:
        return error
    amount = next(opt for opt in own.opts if opt in COUNTED)
    opts = "/".join(sorted(own.opts, key=len))
    elsewhere = "; whole games: pocha game" if amount == "--deals" else ""
    message = f"No such option: {error.option_name} (this command counts {COUNTED[amount]}: {opts} N{elsewhere})"
    return NoSuchOption(error.option_name, message, ctx=error.ctx)


class Command(TyperCommand):
    """A command whose help names its arguments as people write them: ``SPEC...`` (typer: ``SPEC <list[str]>``)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """The usage line after the command's name: [OPTIONS], then each argument."""
        arguments = [argument_name(param) for param in self.get_params(ctx) if isinstance(param, TyperArgument)]
        return [str(self.options_metavar), *arguments]

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse as usual; a flag given both ways (``--duplicate --no-duplicate``) is refused (which is meant?)."""
        words = set(args)
        for param in self.get_params(ctx):
            yes, no = set(getattr(param, "opts", ())), set(getattr(param, "secondary_opts", ()))
            if words & yes and words & no:
                with user_errors():
                    raise PochaError(f"{param.name}: {min(words & yes)} and {min(words & no)} both given; give one")
        given = list(args)  # parsing takes from the list
        try:
            return list(super().parse_args(ctx, args))
        except NoSuchOption as error:
            raise amount_hint(error, self.get_params(ctx)) from None
        except typer.BadParameter as error:
            if error.param is None or not error.message.startswith(NOT_A_NUMBER):
                raise
            whole = "integer" in error.message
            said = "a whole number; write digits alone (no commas, points or e)" if whole else "a number, such as 0.95"
            with user_errors():  # a count as the output writes it (1,000,000) or as Python would (1e6)
                value = given_to(error.param.opts, given)
                raise PochaError(f"{str(error.param.name).replace('_', '-')}: '{value}' is not {said}") from None
        except UsageError as error:
            raise strategy_hint(error, self.get_params(ctx), given) from None

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The Arguments and Options sections, each argument named as in the usage line (no Python type)."""
        sections: dict[str, list[tuple[str, str]]] = {"Arguments": [], "Options": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None and isinstance(param, TyperArgument):
                sections["Arguments"].append((argument_name(param), record[1]))
            elif record is not None:
                sections["Options"].append(record)
        for title, records in sections.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


app = typer.Typer(
    cls=Commands,
    rich_markup_mode=None,  # plain help: wrapped to the terminal, no boxes
    help="Monte Carlo strategy simulator for Pocha (La Podrida), the Spanish Oh Hell.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},  # every command's too
)


def command(**settings: Any) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``app.command``, its help shown by ``Command``."""
    return app.command(cls=Command, **settings)


COMPILE_SECONDS = {  # a command's first run from an empty cache, seconds on 2 idle cores (docs/speed.md, Start-up)
    # simulate, compare, game, train: the learned play's kernels too (about 35 s at load 1.5, a fresh install)
    "simulate": 40,
    "compare": 40,
    "game": 40,
    "train": 40,
    "train-play": 60,  # the teacher's search and the labels: about 30 s of compile seen on a busy machine, and more
    "advise": 45,
    "play": 40,  # its players' (montecarlo@pimc: 36 s at load 6; expected@greedy 2 s); its first ? says its own
    "models": 95,
    "match": 110,
    "variants": 130,
    "bench": 150,  # every workload's kernels
}


def compiling_announced(command: str) -> contextlib.AbstractContextManager[None]:
    """Inside, a line on stderr if the command is about to compile kernels the cache lacks, before the wait.

    Said as what it is: a run with new options (``--where``, pimc play) compiles a few kernels more,
    so the time is the most a command's first run takes, from an empty cache.
    """
    from pocha import api

    message = compile_notice(f"this pocha {command} run needs", COMPILE_SECONDS[command])
    return api.announcing_first_compile(lambda: typer.echo(message, err=True))


say = partial(typer.echo, err=True)  # a line for the person running pocha, on stderr (results go to stdout)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn a user's mistake into one line on stderr and exit status 1."""
    try:
        yield
    except PochaError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None


@contextlib.contextmanager
def running(command: str | None = None, unit: str = "deals") -> Iterator[ProgressBar | ProgressLines]:
    """Progress shown, user errors as one line, and word of a first compile (of ``command``; Ctrl-C: ``Commands``)."""
    progress = progress_shown(unit)
    try:
        with user_errors(), compiling_announced(command) if command else contextlib.nullcontext():
            yield progress
    finally:
        progress.close()


def command_line(ctx: typer.Context) -> str:
    """The command line that was run, as a shell would take it (this invocation's, not a test runner's argv)."""
    return shlex.join(["pocha", *ctx.meta[ARGUMENTS]])


def resume_command(ctx: typer.Context, checkpoint: str | Path) -> str:
    """The command line that was run, resuming from ``checkpoint`` (instead of what it resumed, if anything)."""
    given = ctx.meta[ARGUMENTS]
    kept = [
        arg
        for before, arg in zip(["", *given], given, strict=False)
        if arg != "--resume" and before != "--resume" and not arg.startswith("--resume=")
    ]
    return shlex.join(["pocha", *kept, "--resume", str(checkpoint)])
