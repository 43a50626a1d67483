"""Small fakes of discord.py's interaction objects, over the real bot's services.

Each fake has only attributes that the real discord.py class has
(test_fakes_match_discord checks that), so a cog that works here uses the
real API. What the bot said is collected in `Said`.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import discord

from bot.config import Secret, Settings
from bot.database import Database
from bot.delivery import Sender
from bot.delivery.division_roles import DivisionRoles
from bot.delivery.night_events import NightEvents
from bot.models import ServerSetup
from bot.scheduler import LeagueScheduler
from bot.ui.replies import report
from standin.messages import check_body
from tests.cogs.recording import RecordedDatabase, recording

GUILD = 111111111111111111
COMMISSIONER_ROLE = 222222222222222222
BOT_USER = 999999999999999999
OPERATOR = 999999999999999990  # the bot's owner, a member of no league here
ANNOUNCEMENTS = 333333333333333333
APPROVALS = 444444444444444444
_ids = itertools.count(900000000000000000)


@dataclass
class Reply:
    content: str
    ephemeral: bool
    view: discord.ui.View | None = None
    file: bytes | None = None  # an attached file's bytes (the standings picture)
    embeds: list[discord.Embed] = field(default_factory=list)

    @property
    def shown(self) -> str:
        """The text and the embeds, as a phone shows them."""
        return "\n".join([self.content, *map(embed_text, self.embeds)]).strip("\n")


def embed_text(embed: discord.Embed) -> str:
    """An embed as a phone shows it: title, description, each field's name and
    value, footer."""
    lines = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        lines += [f"{f.name}", f"{f.value}"]
    lines.append(embed.footer.text or "")
    return "\n".join(line for line in lines if line)


def _read(file: discord.File | None) -> bytes | None:
    return None if file is None else file.fp.read()


@dataclass
class Said:
    """Everything the bot sent for one interaction."""

    replies: list[Reply] = field(default_factory=list)
    deferred: bool | None = None  # None: not deferred; else whether it was ephemeral
    modal: discord.ui.Modal | None = None  # the (last) form the bot opened (send_modal)
    edited: list[str] = field(default_factory=list)
    edited_views: list[discord.ui.View | None] = field(default_factory=list)
    modals: list[discord.ui.Modal] = field(default_factory=list)  # every form opened
    # A deferral's "thinking…" message, until the first followup fills it in: that
    # followup is as private or public as the deferral said, whatever it asks.
    loading: bool = False
    # In order: "acknowledged" (the first response), and each "read", "quick read"
    # (one statement inline) and "transaction" begun on the database meanwhile.
    events: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(r.shown for r in self.replies)


@dataclass
class FakeRole:
    id: int


@dataclass
class FakeMember:
    id: int
    display_name: str
    roles: list[FakeRole] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.display_name


def _check_body(
    content: str | None, embed: discord.Embed | None, embeds: list[discord.Embed] | None = None
) -> list[discord.Embed]:
    """Discord's limits on a message's text and embeds (the stand-in's own check,
    which answers as Discord does); the embeds the message keeps."""
    kept = [embed] if embed is not None else list(embeds or [])
    body = {"content": content, "embeds": [e.to_dict() for e in kept]}
    check_body(body, creating=True)
    return kept


class FakeMessage:
    def __init__(
        self,
        channel: FakeChannel,
        content: str,
        view: discord.ui.View | None,
        nonce: str | int | None = None,
    ) -> None:
        self.id = next(_ids)
        self.channel = channel
        self.content = content
        self.view = view
        self.nonce = nonce
        self.pinged: list[int] = []  # users the post may ping (allowed_mentions)
        self.files: list[bytes] = []  # attached files' bytes (the standings picture)
        self.edits = 0  # how many times the bot edited it
        self.embeds: list[discord.Embed] = []  # as discord.Message keeps them
        self.flags = discord.MessageFlags()  # .ephemeral: a reply only its user sees
        self.deleted = False  # someone deleted it in Discord: an edit gets 404 10008

    async def edit(
        self,
        *,
        content: Any = discord.utils.MISSING,
        view: Any = discord.utils.MISSING,
        embed: Any = discord.utils.MISSING,
        embeds: Any = discord.utils.MISSING,
    ) -> FakeMessage:
        """As discord.py's edit: Discord changes only what is sent, so the text,
        embeds or buttons not passed stay as they were (None removes them)."""
        if self.channel.refuse:
            raise discord.Forbidden(_FakeHTTPResponse(403), "Missing Permissions")
        if self.deleted:
            raise discord.NotFound(_FakeHTTPResponse(404), {"message": "Unknown Message",
                                                            "code": 10008})  # fmt: skip
        missing = discord.utils.MISSING
        content = self.content if content is missing else content
        if embed is missing and embeds is missing:
            self.embeds = _check_body(content, None, self.embeds)
        else:
            self.embeds = _check_body(content, embed or None, [] if embeds is missing else embeds)
        self.content = content or ""
        if view is not missing:
            self.view = view
        self.edits += 1
        return self

    def button(self, label: str) -> discord.ui.Item[Any]:
        assert self.view is not None, "this message has no buttons"
        for child in self.view.children:
            inner = getattr(child, "item", child)
            if label in (getattr(inner, "label", None), getattr(inner, "placeholder", None)):
                return child
        raise AssertionError(f"no {label!r} button on this message")


class FakeChannel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.sent: list[FakeMessage] = []
        self.refuse = False

    async def send(
        self,
        content: str | None,
        *,
        view: discord.ui.View | None = None,
        allowed_mentions: discord.AllowedMentions | None = None,
        nonce: str | int | None = None,
        files: list[discord.File] | None = None,
        embed: discord.Embed | None = None,
        embeds: list[discord.Embed] | None = None,
    ) -> FakeMessage:
        if self.refuse:
            raise discord.Forbidden(_FakeHTTPResponse(403), "Missing Permissions")
        kept = _check_body(content, embed, embeds)
        # discord.py sends enforce_nonce with a nonce: Discord returns the earlier message.
        earlier = [m for m in self.sent if nonce is not None and m.nonce == nonce]
        if earlier:
            return earlier[0]
        message = FakeMessage(self, content or "", view, nonce)
        message.embeds = kept
        assert len(files or []) <= 10, "Discord takes at most 10 attachments"
        message.files = [f.fp.read() for f in files or []]
        users = allowed_mentions.users if allowed_mentions is not None else False
        message.pinged = [u.id for u in users] if isinstance(users, list) else []
        self.sent.append(message)
        return message

    def get_partial_message(self, message_id: int) -> FakeMessage:
        for message in self.sent:
            if message.id == message_id:
                return message
        raise AssertionError(f"no message {message_id} in channel {self.id}")


class _FakeHTTPResponse:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Forbidden"


class FakeResponse:
    def __init__(
        self, said: Said, kind: Callable[[], discord.InteractionType] | None = None
    ) -> None:
        self._said = said
        self._done = False
        self._kind = kind  # the interaction's type now: it decides what a defer shows

    def is_done(self) -> bool:
        return self._done

    def _acknowledge(self) -> None:
        assert not self._done, "an interaction is acknowledged once"
        self._done = True
        self._said.events.append("acknowledged")

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self._acknowledge()
        self._said.deferred = ephemeral
        # discord.py: a command's defer shows "thinking…"; a button's only with `thinking`.
        kind = self._kind() if self._kind is not None else None
        command = kind in (None, discord.InteractionType.application_command)
        self._said.loading = thinking or command

    async def send_message(
        self,
        content: str | None = None,
        *,
        ephemeral: bool = False,
        view: discord.ui.View | None = None,
        file: discord.File | None = None,
        embed: discord.Embed | None = None,
    ) -> None:
        assert not self._done, "an interaction is acknowledged once"
        kept = _check_body(content, embed)
        self._acknowledge()
        self._said.replies.append(Reply(content or "", ephemeral, view, _read(file), kept))

    async def send_modal(self, modal: discord.ui.Modal, /) -> None:
        assert not self._done, "a modal is the first answer to an interaction, never after a defer"
        assert len(modal.title) <= 45 and 1 <= len(modal.children) <= 5
        modal.to_dict()  # what discord.py would send
        self._acknowledge()
        self._said.modal = modal
        self._said.modals.append(modal)

    async def edit_message(
        self,
        *,
        content: str | None = None,
        view: discord.ui.View | None = None,
        embed: discord.Embed | None = None,
    ) -> None:
        self._acknowledge()
        kept = _check_body(content, embed)
        self._said.edited.append("\n".join([content or "", *map(embed_text, kept)]).strip())
        self._said.edited_views.append(view)


class FakeFollowup:
    def __init__(self, said: Said) -> None:
        self._said = said

    async def send(
        self,
        content: str | None = None,
        *,
        ephemeral: bool = False,
        view: Any = discord.utils.MISSING,
        file: discord.File | None = None,
        embed: discord.Embed | None = None,
    ) -> None:
        if view is discord.utils.MISSING:
            view = None
        elif not hasattr(view, "__discord_ui_view__"):  # as discord.py's Webhook.send: None too
            raise TypeError(f"expected view parameter to be a View, not {type(view).__name__}")
        kept = _check_body(content, embed)
        if self._said.loading:  # fills in the deferral's message, as Discord does
            self._said.loading = False
            ephemeral = bool(self._said.deferred)
        self._said.replies.append(Reply(content or "", ephemeral, view, _read(file), kept))


class FakeBot:
    """The parts of LeagueBot that cogs and buttons use, over a real database."""

    def __init__(self, db: Database, tmp_path: Path) -> None:
        self.db = RecordedDatabase(db)
        self.settings = Settings(
            token=Secret("x" * 40), guild_id=GUILD, commissioner_role_id=COMMISSIONER_ROLE,
            announcement_channel_id=ANNOUNCEMENTS, approvals_channel_id=APPROVALS,
            database_path=tmp_path / "league.sqlite3", time_zone="America/New_York",
            log_level="INFO", api_base=None, backup_dir=tmp_path / "backups",
        )  # fmt: skip
        self.channels = {
            ANNOUNCEMENTS: FakeChannel(ANNOUNCEMENTS),
            APPROVALS: FakeChannel(APPROVALS),
        }
        self.synced = 0
        # The real sender, not started: `invoke` and `click` deliver what a command owed.
        self.outbox = Sender(self)  # type: ignore[arg-type]
        self.night_events = NightEvents(self)  # type: ignore[arg-type]  # no guild: does nothing
        self.division_roles = DivisionRoles(self)  # type: ignore[arg-type]  # as night_events
        self.uploads = asyncio.Semaphore(4)  # as LeagueBot's: answers with a file at once
        self.recent: dict[tuple[str, int], datetime] = {}  # as LeagueBot's
        # Not started: its jobs never run; `/league night lock` posts through it. As
        # LeagueBot's, it owes its posts to the outbox and wakes it; `invoke` and
        # `click` flush the outbox, so a scheduled post is delivered as a command's is.
        self.schedulers = {GUILD: LeagueScheduler(db, GUILD, self.outbox.wake)}
        # The league's server, set up as /setup (or an older .env) would.
        self.setups = {GUILD: ServerSetup(GUILD, ANNOUNCEMENTS, APPROVALS, COMMISSIONER_ROLE)}
        self.channel_checks: dict[int, dict[str, object]] = {}
        self.dms: dict[int, FakeChannel] = {}
        self.user = discord.Object(BOT_USER)  # the bot's own account, logged in
        self.owner_id = OPERATOR  # who runs the bot: the application's owner

    @property
    def scheduler(self) -> LeagueScheduler:
        """The league's scheduler (the fake serves one server)."""
        return self.schedulers[GUILD]

    def setup_of(self, guild_id: int | None) -> ServerSetup | None:
        return self.setups.get(guild_id) if guild_id is not None else None

    def scheduler_of(self, guild_id: int | None) -> LeagueScheduler | None:
        return self.schedulers.get(guild_id) if guild_id is not None else None

    async def league_set_up(self, setup: ServerSetup) -> None:
        self.setups[setup.guild_id] = setup

    def get_channel(self, channel_id: int) -> FakeChannel | None:
        return self.channels.get(channel_id)

    async def create_dm(self, user: discord.abc.Snowflake) -> FakeChannel:
        """A member's DM channel (one per member, kept in `dms`)."""
        return self.dms.setdefault(user.id, FakeChannel(user.id))

    def get_guild(self, guild_id: int) -> None:
        return None  # no member cache: the commissioners cannot be found for a DM

    async def fetch_channel(self, channel_id: int) -> FakeChannel:
        raise discord.NotFound(_FakeHTTPResponse(404), "Unknown Channel")

    async def is_owner(self, user: discord.abc.User) -> bool:
        return user.id == self.owner_id

    async def sync_guild_commands(self) -> int:
        self.synced += 1
        return 30


class FakeInteraction:
    def __init__(
        self,
        bot: FakeBot,
        user: FakeMember,
        created_at: datetime,
        *,
        message: FakeMessage | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        self.said = Said()
        self.client = bot
        self.user = user
        self.guild_id = GUILD
        self.type = discord.InteractionType.application_command
        self.created_at = created_at
        self.response = FakeResponse(self.said, lambda: self.type)
        self.followup = FakeFollowup(self.said)
        self.message = message
        self.command = None
        self.data = data or {}
        self.guild = None  # no cached server: /setup's checks need the stand-in
        self.permissions = discord.Permissions.none()  # the member's (no Manage Server)

    async def edit_original_response(
        self,
        *,
        content: str | None = None,
        view: Any = discord.utils.MISSING,
        embed: discord.Embed | None = None,
    ) -> None:
        """After a button's defer(), the clicked message; else the deferred reply.
        As discord.py: no view named leaves the message's buttons (recorded as
        MISSING); `view=None` removes them."""
        assert self.response.is_done(), "edit the original response after acknowledging"
        kept = _check_body(content, embed)  # Discord's limits, 2,000 characters among them
        self.said.edited.append("\n".join([content or "", *map(embed_text, kept)]).strip())
        self.said.edited_views.append(view)


RULE_ID = re.compile(r"\bR\d+(\.\d+)?\b")


def no_rule_ids(said: Said) -> Said:
    """What a user reads never names an internal rule id."""
    for text in [*(r.shown for r in said.replies), *said.edited]:
        assert not RULE_ID.search(text), f"a rule id reaches a user: {text!r}"
    return said


async def invoke(command: Any, cog: Any, interaction: FakeInteraction, **options: Any) -> Said:
    """Run a slash command's callback as the tree does, errors through the one error path."""
    with recording(interaction):
        try:
            if hasattr(cog, "interaction_check") and type(cog).interaction_check is not getattr(
                discord.ext.commands.Cog, "interaction_check", None
            ):
                await cog.interaction_check(interaction)
            await command.callback(cog, interaction, **options)
        except Exception as error:
            await report(interaction, error)  # type: ignore[arg-type]
    await interaction.client.outbox.flush()
    return no_rule_ids(interaction.said)


async def click(item: Any, interaction: FakeInteraction, values: list[str] | None = None) -> Said:
    """Click a button (or pick `values` in a menu): rebuilt from its custom id,
    as discord.py does after a restart. A picked value must be one of the menu's."""
    from bot.components.approvals import DecisionButton
    from bot.components.paging import PageButton
    from cogs.attendance.attendance_views import ATTENDANCE_ITEMS
    from cogs.playoffs.playoffs_views import MATCH_ITEMS
    from cogs.scorecards.scorecards_views import CARD_ITEMS

    inner = getattr(item, "item", item)
    if values is not None:
        offered = [o.value for o in inner.options]
        assert all(v in offered for v in values), f"{values} are not among {offered}"
        assert inner.min_values <= len(values) <= inner.max_values
        interaction.data = {**interaction.data, "custom_id": inner.custom_id, "values": values}
    interaction.type = discord.InteractionType.component
    for kind in (DecisionButton, PageButton, *CARD_ITEMS, *MATCH_ITEMS, *ATTENDANCE_ITEMS):
        match = kind.__discord_ui_compiled_template__.fullmatch(inner.custom_id)
        if match is not None:
            found = await kind.from_custom_id(interaction, inner, match)  # type: ignore[attr-defined]
            with recording(interaction):
                await found.callback(interaction)  # type: ignore[arg-type]
            break
    else:
        raise AssertionError(f"{inner.custom_id} matches no persistent item")
    await interaction.client.outbox.flush()
    return no_rule_ids(interaction.said)


async def submit_modal(
    modal: discord.ui.Modal,
    interaction: FakeInteraction,
    values: list[str] | None = None,
    **typed: str,
) -> Said:
    """A member fills in the form's text inputs (in order, or by attribute name)
    and submits it: the values go through discord.py's own `_refresh`, then
    `on_submit`, errors to `on_error`, as discord.py's modal task runs them."""
    inputs = [c for c in modal.walk_children() if isinstance(c, discord.ui.TextInput)]
    if values is None:
        by_box = {id(getattr(modal, name)): text for name, text in typed.items()}
        values = [by_box.get(id(box), "") for box in inputs]
    assert len(values) == len(inputs), f"the form has {len(inputs)} fields"
    for box, value in zip(inputs, values, strict=True):
        assert len(value) <= (box.max_length or 4000), "Discord caps what a field takes"
        assert box.min_length is None or len(value) >= box.min_length
    components = [
        {"type": 18, "component": {"type": 4, "custom_id": box.custom_id, "value": value}}
        for box, value in zip(inputs, values, strict=True)
    ]
    modal._refresh(interaction, components, {})  # type: ignore[arg-type]
    interaction.type = discord.InteractionType.modal_submit
    with recording(interaction):
        try:
            await modal.on_submit(interaction)  # type: ignore[arg-type]
        except Exception as error:
            await modal.on_error(interaction, error)  # type: ignore[arg-type]
    await interaction.client.outbox.flush()
    return no_rule_ids(interaction.said)


def card_text(message: FakeMessage) -> str:
    """An approval card as a phone shows it: title, fields, footer."""
    assert message.embeds, "this message is not a card"
    return embed_text(message.embeds[0])


def shown(message: FakeMessage) -> str:
    """A posted message as a phone shows it: its text, then its embeds."""
    return "\n".join([message.content, *map(embed_text, message.embeds)]).strip("\n")


def private_message() -> FakeMessage:
    """An ephemeral reply of the bot's, as a button on it is clicked."""
    message = FakeMessage(FakeChannel(0), "", None)
    message.flags = discord.MessageFlags(ephemeral=True)
    return message
