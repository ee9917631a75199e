import os

import pytest
from hypothesis import settings as hypothesis_settings

# The rules are pure functions: many quick examples in CI, fewer by hand.
hypothesis_settings.register_profile("ci", max_examples=150, deadline=None)
hypothesis_settings.register_profile("dev", max_examples=60, deadline=None)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Factories hash a password for every user; the real hasher costs ~0.7 s each.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _english_unless_asked():
    # A request under /de/ leaves German active in this thread; start every
    # test in the default language so reverse() and messages do not depend
    # on which test ran before.
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_caches(settings, tmp_path_factory):
    # Pages and files are cached by tournament version; ids restart with
    # every test's database, so no test may meet another's entries.
    from django.core.cache import caches

    settings.CACHES = {
        **settings.CACHES,
        "files": {
            **settings.CACHES["files"],
            "LOCATION": str(tmp_path_factory.getbasetemp() / "files-cache"),
        },
    }
    for alias in ("default", "files"):
        caches[alias].clear()
    yield
