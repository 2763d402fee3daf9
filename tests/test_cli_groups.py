"""The command line's option values are built from flags named as their fields, and a stray name is caught."""

from dataclasses import fields

import pytest

from pocha.cli.commands import group
from pocha.options import RunOptions


def flags_of(kind) -> dict:
    """Every field of an option value, as a command's locals() would hold its flags."""
    return {item.name: item.default for item in fields(kind) if item.init}


def test_every_field_from_its_flag():
    assert group(RunOptions, flags_of(RunOptions) | {"chunk_size": 500}).chunk_size == 500


def test_a_flag_named_apart_from_its_field_is_refused_not_a_default_kept():
    given = flags_of(RunOptions)
    given["chunk"] = given.pop("chunk_size")
    with pytest.raises(TypeError, match=r"no flag for \['chunk_size'\]"):
        group(RunOptions, given)


def test_a_field_left_unflagged_keeps_its_default():
    given = flags_of(RunOptions)
    del given["chunk_size"]
    assert group(RunOptions, given, ("chunk_size",)).chunk_size is None


@pytest.mark.parametrize("unflagged", ["seed", "no_such_field"])
def test_unflagged_may_name_only_a_field_without_a_flag(unflagged):
    with pytest.raises(TypeError, match=rf"a flag or no field: \['{unflagged}'\]"):
        group(RunOptions, flags_of(RunOptions), (unflagged,))
