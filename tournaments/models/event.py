"""The event and who takes part: clubs, players, tournaments and their entries,
and the invitations to co-organise a tournament."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import rules
from tournaments.models.rule_fields import (
    TablePointsField,
    TieBreaksField,
    table_points_default,
    table_points_rules,
    tie_breaks_default,
)


class Club(models.Model):
    """A Rummikub club: its members are the players whose club it is; its
    organisers are its creator and co-organisers (as for a tournament)."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    # Its address, /c/<slug>/; the API answers it.
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    # A private club's page, members and seasons are for its organisers only.
    public = models.BooleanField(_("public"), default=True)
    created = models.DateTimeField(auto_now_add=True)
    # Who may change or delete it (with staff); None: staff only.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    co_organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="clubs_co_organised",
        verbose_name=_("co-organisers"),
        help_text=_("Other users who organise this club, its members and its seasons."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )
    created = models.DateTimeField(auto_now_add=True)
    # Who may change or delete them (with staff); None: staff only.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [models.Index(fields=["name"])]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("tournament")
        LEAGUE = "league", _("league")

    class Seating(models.TextChoices):
        RANDOM = "random", _("random")
        SWISS = "swiss", _("Swiss (by standings)")
        BALANCED = "balanced", _("balanced (fewest repeat meetings)")
        MANUAL = "manual", _("manual")

    class Ranking(models.TextChoices):
        SCORE = "score", _("total score")
        TABLE_POINTS = "table_points", _("table points")
        AVERAGE = "average", _("average score per game")
        WINS = "wins", _("games won")

    class PoolTie(models.TextChoices):
        SHARE = "share", _("joint winners share")
        FEWEST_TILES = "fewest_tiles", _("fewest tiles wins")
        DRAW = "draw", _("a draw: they share the points, nobody wins")

    class CarryOver(models.TextChoices):
        NONE = "0", _("none: the stage starts from zero")
        HALF = "0.5", _("half, rounded up")
        ALL = "1", _("all of them")

    class FinalFrom(models.TextChoices):
        SEMIFINAL_WINNERS = "semifinal_winners", _("the semi-final table winners, then the best")
        STAGE_POINTS = "stage_points", _("the best by semi-final points only")

    class Confirmation(models.TextChoices):
        NONE = "none", _("none: every game counts as entered")
        ORGANISER = "organiser", _("an organiser confirms games entered through a match link")
        DOUBLE_ENTRY = "double_entry", _("double entry: a game counts once entered twice alike")

    class Unconfirmed(models.TextChoices):
        INCLUDE = "include", _("count them, marked")
        EXCLUDE = "exclude", _("leave them out until confirmed")

    class Paper(models.TextChoices):
        A4 = "A4", "A4"
        LETTER = "Letter", "Letter"

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    date = models.DateField(_("date"), null=True, blank=True)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("club"),
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournaments",
        verbose_name=_("owner"),
    )
    co_organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="co_organised",
        verbose_name=_("co-organisers"),
        help_text=_("Other users who organise this tournament (and no other)."),
    )
    public = models.BooleanField(_("public"), default=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PLANNED
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.TOURNAMENT)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    paper = models.CharField(_("paper size"), max_length=8, choices=Paper.choices, default="A4")

    # The rule set.
    joker_penalty = models.PositiveSmallIntegerField(_("joker penalty"), default=30)
    pool_tie = models.CharField(
        _("tie for the lowest rack"), max_length=16, choices=PoolTie.choices, default="share"
    )
    ranking = models.CharField(
        _("ranking"), max_length=16, choices=Ranking.choices, default=Ranking.SCORE
    )
    table_points = TablePointsField(
        _("table points"),
        default=table_points_default,
        help_text=_(
            "Points per place, first place first, for tables of 2, 3 and 4 players, "
            'e.g. {"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]}; tied places share.'
        ),
    )
    tie_breaks = TieBreaksField(
        _("tie-breaks"),
        default=tie_breaks_default,
        help_text=_(
            "In order, from: wins, table_points, score, rack_total, games, average, "
            "head_to_head, opponents_average."
        ),
    )
    min_games = models.PositiveSmallIntegerField(
        _("minimum games to be ranked by average"), default=0
    )

    # Event variants: a cap on each loss, bonuses on top of the zero-sum score.
    loss_cap = models.PositiveSmallIntegerField(
        _("loss cap"),
        null=True,
        blank=True,
        help_text=_("The most a player can lose in one game; empty for no cap."),
    )
    winner_bonus = models.PositiveSmallIntegerField(_("winner's bonus"), default=0)
    runner_up_bonus = models.PositiveSmallIntegerField(_("runner-up's bonus"), default=0)

    # Trust: who confirms results, and whether standings wait for it.
    confirmation = models.CharField(
        _("confirmation of results"),
        max_length=16,
        choices=Confirmation.choices,
        default=Confirmation.NONE,
    )
    standings_unconfirmed = models.CharField(
        _("unconfirmed games in the standings"),
        max_length=16,
        choices=Unconfirmed.choices,
        default=Unconfirmed.INCLUDE,
    )

    # The plan.
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    games_per_round = models.PositiveSmallIntegerField(_("games per round"), default=4)
    seating = models.CharField(
        _("seating"), max_length=16, choices=Seating.choices, default=Seating.SWISS
    )
    max_table_size = models.PositiveSmallIntegerField(_("largest table"), default=4)
    bye_score = models.DecimalField(_("score for a bye"), max_digits=8, decimal_places=2, default=0)
    seed = models.PositiveIntegerField(_("seating seed"), default=0)
    semifinal_players = models.PositiveSmallIntegerField(_("players in the semi-finals"), default=0)
    # Stages: empty game counts mean the round's usual games_per_round.
    semifinal_games = models.PositiveSmallIntegerField(
        _("games in the semi-finals"), null=True, blank=True
    )
    final_games = models.PositiveSmallIntegerField(_("games in the final"), null=True, blank=True)
    final_first_to = models.PositiveSmallIntegerField(
        _("the final ends when a player has won"), default=0
    )
    carry_over = models.CharField(
        _("points carried into a stage"),
        max_length=4,
        choices=CarryOver.choices,
        default=CarryOver.NONE,
    )
    final_from = models.CharField(
        _("who reaches the final"),
        max_length=24,
        choices=FinalFrom.choices,
        default=FinalFrom.SEMIFINAL_WINNERS,
    )
    # The hall: the turn timer and the round's time limit (0 = none).
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), default=60)
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), default=0)
    # The preset the tournament was created from, if any (its settings may since differ).
    format = models.CharField(_("format"), max_length=32, blank=True)
    # An evening of a club's season, when it belongs to one.
    season = models.ForeignKey(
        "tournaments.Season",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="evenings",
        verbose_name=_("season"),
    )
    # Its games move the players' ratings (a private tournament's never do).
    rated = models.BooleanField(_("rated"), default=True)
    # The first round seated by the players' ratings (``seating.ratings``).
    seed_by_rating = models.BooleanField(
        _("seat the first round by rating"),
        default=False,
        help_text=_(
            "Swiss: players of similar rating share the first round's tables. Balanced: "
            "every table of the first round gets a fair mix of ratings."
        ),
    )

    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(max_table_size__gte=2) & Q(max_table_size__lte=4),
                name="tournament_table_size_2_4",
            ),
            models.CheckConstraint(
                condition=Q(games_per_round__gte=1) & Q(games_per_round__lte=30),
                name="tournament_games_per_round_1_30",
            ),
            models.CheckConstraint(condition=Q(rounds__lte=100), name="tournament_rounds_max"),
            models.CheckConstraint(
                condition=Q(joker_penalty__lte=rules.JOKER_PENALTY_MAX),
                name="tournament_joker_penalty_max",
                violation_error_message=_("The joker penalty can be at most 1000 points."),
            ),
            models.CheckConstraint(
                condition=Q(confirmation__in=["none", "organiser", "double_entry"]),
                name="tournament_confirmation_known",
            ),
            models.CheckConstraint(
                condition=Q(standings_unconfirmed__in=["include", "exclude"]),
                name="tournament_standings_unconfirmed_known",
            ),
            models.CheckConstraint(
                condition=Q(loss_cap__isnull=True)
                | (Q(loss_cap__gte=1) & Q(loss_cap__lte=rules.LOSS_CAP_MAX)),
                name="tournament_loss_cap_range",
            ),
            models.CheckConstraint(
                condition=Q(winner_bonus__lte=rules.BONUS_MAX)
                & Q(runner_up_bonus__lte=rules.BONUS_MAX),
                name="tournament_bonus_max",
            ),
            models.CheckConstraint(
                condition=Q(final_first_to__lte=rules.FINAL_FIRST_TO_MAX),
                name="tournament_final_first_to_max",
            ),
            models.CheckConstraint(
                condition=Q(carry_over__in=rules.CARRY_OVER_CHOICES),
                name="tournament_carry_over_known",
            ),
            models.CheckConstraint(
                condition=Q(final_from__in=rules.FINAL_FROM_CHOICES),
                name="tournament_final_from_known",
            ),
            models.CheckConstraint(
                condition=Q(turn_seconds__in=rules.TURN_SECONDS_CHOICES),
                name="tournament_turn_seconds_known",
            ),
            models.CheckConstraint(
                condition=Q(round_minutes__lte=rules.ROUND_MINUTES_MAX),
                name="tournament_round_minutes_max",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_finished(self) -> bool:
        """Whether its organisers declared it finished: frozen until reopened
        (the services refuse through ``services.tournament_open``)."""
        return self.status == self.Status.FINISHED

    def rules(self) -> rules.Rules:
        return rules.Rules(
            joker_penalty=self.joker_penalty,
            pool_tie=self.pool_tie,
            table_points=table_points_rules(self.table_points),
            loss_cap=self.loss_cap,
            winner_bonus=self.winner_bonus,
            runner_up_bonus=self.runner_up_bonus,
        )


class Entry(models.Model):
    """A player registered in a tournament.

    ``active`` players are seated in the next round; ``absent`` ones are entered
    but not here for it (a late arrival not yet checked in, a no-show, a league
    member who skips a club night); ``withdrawn`` ones have left the event. Absent
    and withdrawn players keep the results they already played.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        ABSENT = "absent", _("absent (checked out)")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    # Free text (``U14``, ``Senior``); standings can be shown per category.
    category = models.CharField(
        _("category"), max_length=rules.CATEGORY_MAX_LENGTH, blank=True, default=""
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "player__name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class CoOrganiserInvitation(models.Model):
    """An invitation to co-organise a tournament, waiting for its answer.

    It names the invited user by *username*, whether or not such a user exists,
    so that inviting tells the inviter nothing about who has an account; it is
    theirs only when their account is older than the invitation
    (``access.invitations_for_q``). Accepting makes them a co-organiser and
    removes it; declining or withdrawing removes it.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(_("username"), max_length=150)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "id"]
        verbose_name = _("co-organiser invitation")
        verbose_name_plural = _("co-organiser invitations")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "username"], name="invitation_once"),
        ]
        indexes = [models.Index(fields=["username"], name="invitation_of_username")]

    def __str__(self) -> str:
        return f"{self.username} @ {self.tournament}"
