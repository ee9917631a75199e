"""Who acts: the one type for the user that services, selectors and access rules act for.

Vocabulary: the *acting user* (``ActingUser``) is whatever a request carries
(a user, or ``AnonymousUser`` when nobody is logged in) or ``None`` (a
command, a test, a match link: nobody); ``access.user_or_none`` gives the
logged-in user among them, or ``None``, and the audit trail records that one.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

ActingUser = AbstractBaseUser | AnonymousUser | None
