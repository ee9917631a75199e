"""Every language is complete, covers every string marked in the code, and the
committed .mo files match their .po."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

BASE = Path(settings.BASE_DIR)
LOCALE = BASE / "locale"
LANGS = [code for code, _name in settings.LANGUAGES if code != "en"]


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_is_complete_and_compiled(lang, tmp_path):
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    mo = tmp_path / "django.mo"
    out = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(mo), str(po)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "untranslated" not in out.stderr and "fuzzy" not in out.stderr, out.stderr
    assert mo.read_bytes() == (po.parent / "django.mo").read_bytes(), "run compilemessages"


@pytest.fixture(scope="module")
def marked_strings(tmp_path_factory):
    """A template (.pot) of every string marked in the code, as makemessages finds it.

    makemessages runs in a scratch root that mirrors the project (its top-level
    entries linked, so the same files are found) with an empty locale dir, so
    the committed catalogues are never touched. A folder holding templates is
    copied rather than linked: makemessages writes a temporary .py beside each.
    """
    root = tmp_path_factory.mktemp("makemessages")
    for entry in BASE.iterdir():
        if entry.name.startswith(".") or entry.name == "locale":
            continue
        if entry.is_dir() and any(f.suffix in {".html", ".txt"} for f in entry.rglob("*")):
            shutil.copytree(entry, root / entry.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (root / entry.name).symlink_to(entry)
    (root / "locale").mkdir()
    cwd = Path.cwd()
    os.chdir(root)
    try:
        with override_settings(LOCALE_PATHS=[]):
            call_command(
                "makemessages", locale=[LANGS[0]], keep_pot=True, symlinks=True, verbosity=0
            )
    finally:
        os.chdir(cwd)
    return root / "locale" / "django.pot"


def _msgid_at(lines: list[str], number: int) -> str:
    """The msgid (with any plural) of the entry whose msgstr msgcmp points at, as one line."""
    block: list[str] = []
    for line in reversed(lines[: number - 1]):
        block.insert(0, line)
        if line.startswith("msgid "):
            break
    return " ".join(block)


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_covers_every_marked_string(lang, marked_strings):
    # msgcmp counts an untranslated or fuzzy entry as missing; entries the code
    # no longer uses are only warnings (makemessages --no-obsolete drops them).
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    out = subprocess.run(
        ["msgcmp", str(po), str(marked_strings)], capture_output=True, text=True, check=False
    )
    lines = marked_strings.read_text(encoding="utf-8").splitlines()
    missing = [
        _msgid_at(lines, int(n))
        for n in re.findall(r"django\.pot:(\d+): this message is used but not defined", out.stderr)
    ]
    assert not missing, (
        f"{lang}: marked in the code but not translated (run makemessages, translate, "
        "compilemessages):\n" + "\n".join(missing)
    )
    assert out.returncode == 0, out.stderr
