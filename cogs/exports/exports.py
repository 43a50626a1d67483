"""A season's export: every table the league keeps, as the CSV
files `cogs/exports/exports_text.py` writes. One read, so the files agree with each other.

Names, not ids: a player by their name ("Name (removed)" if a current player
shares it); a Discord member who acted (approved, recorded dues) by their
player name, else the display name recorded when they last acted as
commissioner, else "Discord user (unknown name)". Times in the league's time
zone; money as `Cents` (written in dollars); normalized scores as shown.
"""

from __future__ import annotations

from datetime import date, datetime

import aiosqlite

from bot.database import Database
from bot.database_files import PathLike, open_read_only
from bot.models import GameResultRow, Night, Player, ScorePhoto
from bot.repositories import (
    audit,
    commissioners,
    exports,
    kept_photos,
    leagues,
    people,
    playoff_matches,
    playoff_nights,
    results,
    season_history,
)
from bot.repositories.exports import Record
from bot.rules.stats import NightPlace, night_moves
from bot.scoring import shown
from bot.services import playoffs
from bot.services.context import SeasonContext, league_of, season_context, shown_names
from bot.services.errors import BadInput, NotFound, NotSetUp
from bot.services.outcomes.exports import Cents, ExportPhoto, ExportTable, ExportValue, SeasonExport
from bot.services.outcomes.playoffs import SeasonOrder
from bot.services.outcomes.standings import StandingRow
from bot.services.photos import file_name
from bot.services.standings import rows_of
from cogs.money.money import prizes_in

UNKNOWN_MEMBER = "Discord user (unknown name)"
SOURCES = {  # game_results.source as the export says it (R3.4, R3.6)
    "live": "live",
    "pre_makeup": "pre-makeup",
    "zero_point": "Zero Point",
    "zero_point_limit": "Zero Point (pre-makeup limit)",
}
# results.csv's `division_tally`: what the A-division count (R9.2) takes from the
# night. "not down" is a player who neither won nor moved down (`next_week` says
# where they go: a second-place finisher can move up in a two-player swap, R8.5).
TALLY = {"won": "won", "stayed": "not down", "down": "down"}
FILES = (
    "players", "nights", "games", "scores", "results", "standings", "money", "audit",
    "playoffs", "playoff_games", "final_standings",
)  # fmt: skip
# R13: playoffs.csv, the field; playoff_games.csv, a bracket's games (`player`: the better seed).
PLAYOFF_COLUMNS = ("date", "division", "standing", "player", "role", "checked_in", "replaced_by",
                   "playoff_place")  # fmt: skip
BRACKET_COLUMNS = ("date", "division", "round", "game", "machine", "picked_by", "player", "score",
                   "opponent", "opponent_score", "winner")  # fmt: skip
FINAL_COLUMNS = ("position", "name", "ifpa_number", "league_points", "division")
PLAYER_COLUMNS = ("name", "discord", "skill", "ifpa", "status", "joined", "removed")
PLACE_COLUMNS = ("week", "date", "division", "group", "game", "machine")
SCORE_COLUMNS = (
    *PLACE_COLUMNS, "player", "score", "normalized", "par", "points", "place", "source",
    "state", "reason", "submitted_by", "submitted_at", "decided_by", "decided_at", "photo",
)  # fmt: skip
PHOTOS = "photos"  # the export's folder of the league's copies of scores' photos
EXTENSIONS = {"jpeg": "jpg", "png": "png"}
Row = tuple[ExportValue, ...]
RESULT_COLUMNS = (
    "week", "date", "division", "group", "place", "player", "attendance", "match_points",
    "bonus_base", "multiplier", "bonus", "league_points", "tlp", "tns", "division_tally",
    "next_week", "pre_makeup_night", "payout",
)  # fmt: skip
MONEY_COLUMNS = ("kind", "week", "date", "player", "amount", "note", "by", "at")


async def export_season(db: Database, guild_id: int, season: str | None = None) -> SeasonExport:
    """The running season, or the league's season called `season`, in one read."""
    async with db.read() as conn:
        return await read_season(conn, guild_id, season)


async def export_of_file(
    path: PathLike, *, latest_version: int, season: str | None, guild_id: int | None
) -> SeasonExport:
    """The command-line export: a season of the league in the database file at
    `path`, read-only, in one snapshot (the bot may be running)."""
    conn = await open_read_only(path, latest_version=latest_version)
    try:
        await conn.execute("BEGIN")
        guilds = await exports.guilds(conn)
        if guild_id is None:
            if not guilds:
                raise NotSetUp(f"{path} holds no league yet.")
            if len(guilds) > 1:
                known = ", ".join(str(g) for g in guilds)
                raise BadInput(f"{path} holds several leagues; pick one with --guild: {known}.")
            guild_id = guilds[0]
        elif guild_id not in guilds:
            raise NotFound(f"{path} holds no league of the Discord server {guild_id}.")
        try:
            return await read_season(conn, guild_id, season)
        except NotSetUp:
            league = await league_of(conn, guild_id)
            names = ", ".join(s.season.name for s in await season_history.seasons(conn, league.id))
            raise NotSetUp(
                f"There is no season running; name one with --season: {names or 'none yet'}."
            ) from None
    finally:
        await conn.close()


async def read_season(
    conn: aiosqlite.Connection, guild_id: int, season: str | None = None
) -> SeasonExport:
    """Every table of one season, read on `conn` (the caller's snapshot)."""
    ctx = await season_context(conn, guild_id, season)
    return await _Reader.read(conn, ctx, guild_id)


class _Reader:
    """Reads one season and turns ids into names and stamps into local times."""

    def __init__(
        self,
        ctx: SeasonContext,
        everyone: list[Player],
        member_names: dict[int, str],
    ) -> None:
        self.ctx = ctx
        self.everyone = everyone
        self.name = shown_names(everyone)
        by_discord = {p.discord_id: p.id for p in everyone if p.discord_id is not None}
        self.member = {**member_names, **{d: self.name[i] for d, i in by_discord.items()}}
        self.photos: list[ExportPhoto] = []  # named as scores.csv names them
        self.photo_names: set[str] = set()

    @classmethod
    async def read(
        cls, conn: aiosqlite.Connection, ctx: SeasonContext, guild_id: int
    ) -> SeasonExport:
        everyone = await people.players(conn, ctx.league.id, removed=True)
        reader = cls(ctx, everyone, await commissioners.names(conn, guild_id))
        kept = {p.score_id: p for p in await kept_photos.photos_of_season(conn, ctx.season.id)}
        standing = await rows_of(conn, ctx)
        members = await season_history.players_of_season(conn, ctx.season.id)
        removed = await exports.removed_at(conn, ctx.league.id)
        sid = ctx.season.id
        finale = await playoff_nights.playoff_night(conn, sid)
        tables = (
            reader.players(standing, members, removed),
            reader.nights(await exports.nights(conn, sid), await exports.skipped(conn, sid)),
            reader.games(await exports.games(conn, sid), await exports.group_members(conn, sid)),
            reader.scores(
                await exports.live_scores(conn, sid),
                await exports.stand_in_scores(conn, sid),
                await exports.pre_makeups(conn, sid),
                kept,
            ),
            await reader.results(conn),
            reader.standings(standing),
            await reader.money(conn),
            await reader.audit(conn),
            await reader.playoffs(conn, finale),
            await reader.playoff_games(conn, finale),
            final_standings(standing, await playoffs.season_order_in(conn, ctx)),
        )
        return SeasonExport(ctx.league.name, ctx.season.name, tables, tuple(reader.photos))

    # --- values --------------------------------------------------------------------------

    def who(self, user_id: int | None) -> str:
        """A Discord member by name (see the module's docstring); '' for nobody."""
        if user_id is None:
            return ""
        return self.member.get(user_id, UNKNOWN_MEMBER)

    def when(self, stamp: str | None) -> datetime | None:
        """A stored UTC stamp in the league's time zone (R1.3)."""
        return self.ctx.local(datetime.fromisoformat(stamp)) if stamp else None

    @staticmethod
    def place(row: Record) -> tuple[ExportValue, ...]:
        return (row["week"], date.fromisoformat(row["date"]), row["pool"], row["grp"],
                row["game"], row["machine"])  # fmt: skip

    # --- tables --------------------------------------------------------------------------

    def players(
        self, standing: list[StandingRow], members: set[int], removed: dict[int, str]
    ) -> ExportTable:
        """Everyone in the standings or in a group of the season, in sign-up order.
        The first three columns are what /league player import reads."""
        wanted = {row.player.id for row in standing} | members
        rows = tuple(
            (self.name[p.id], f"<@{p.discord_id}>" if p.discord_id else "",
             f"{p.skill:g}" if p.skill is not None else "", p.ifpa_number,
             "removed" if p.removed else "current", self.when(p.joined_at),
             self.when(removed.get(p.id)))
            for p in self.everyone if p.id in wanted
        )  # fmt: skip
        return ExportTable("players", PLAYER_COLUMNS, rows)

    def nights(self, found: list[Record], skipped: list[Record]) -> ExportTable:
        """Each night of the season, then the dates skipped (R1.2)."""
        rows: list[tuple[ExportValue, ...]] = [
            (n["week"], date.fromisoformat(n["date"]), n["status"], n["working"] or "",
             Cents(n["pot_cents"]) if n["pot_cents"] is not None else None,
             self.when(n["locked_at"]), self.when(n["finalized_at"]), self.who(n["finalized_by"]),
             "")
            for n in found
        ]  # fmt: skip
        rows += [
            (None, date.fromisoformat(s["date"]), "skipped", "", None, None, None, "", s["reason"])
            for s in skipped
        ]
        columns = ("week", "date", "status", "machines_working", "pot", "locked_at",
                   "finalized_at", "finalized_by", "skip_reason")  # fmt: skip
        return ExportTable("nights", columns, tuple(rows))

    def games(self, found: list[Record], members: dict[int, list[int]]) -> ExportTable:
        rows = tuple(
            (*self.place(g), bool(g["filled"]),
             "; ".join(self.name[p] for p in members.get(g["group_id"], [])))
            for g in found
        )  # fmt: skip
        return ExportTable("games", (*PLACE_COLUMNS, "filled_by_bot", "players"), rows)

    def photo(self, s: Record, kept: dict[int, ScorePhoto]) -> str:
        """A live score's photo as scores.csv names it: the league's copy in the
        export's photos folder, or, for a score sent before copies were kept,
        Discord's link (which may have expired)."""
        copy = kept.get(s["score_id"])
        if copy is None:
            return s["photo_url"] or ""
        group = f"Division {s['pool']} Group {s['grp']}" if s["pool"] else f"Group {s['grp']}"
        where = (s["week"], group, s["game"], self.name[s["player_id"]], EXTENSIONS[copy.format])
        copies = 1
        while (name := f"{PHOTOS}/{file_name(*where, copies)}") in self.photo_names:
            copies += 1  # a rejected score's photo, and the one sent again
        self.photo_names.add(name)
        self.photos.append(ExportPhoto(copy.score_id, name, copy.size))
        return name

    def scores(
        self, live: list[Record], stand_in: list[Record], pre: list[Record],
        kept: dict[int, ScorePhoto],
    ) -> ExportTable:  # fmt: skip
        """Every score: entered live (any state), the pre-makeups and Zero Point
        games that stood in for a game (R3.2-R3.6), and every pre-makeup entered."""

        def game_score(s: Record, source: str, state: str, photo: str = "") -> Row:
            par = s["par"]
            normalized = None  # a score that did not count (pending, rejected, superseded)
            if s["points"] is not None:  # R6.1, exact, as the results post shows it
                game = GameResultRow(0, s["player_id"], s["score"], source, s["points"], par, 0)
                normalized = shown(game.normalized)
            return (*self.place(s), self.name[s["player_id"]], s["score"], normalized, par,
                    s["points"], s["place"], SOURCES[source], state, s["reason"],
                    self.who(s["submitted_by"]), self.when(s["submitted_at"]),
                    self.who(s["decided_by"]), self.when(s["decided_at"]), photo)  # fmt: skip

        rows = [game_score(s, "live", s["status"], self.photo(s, kept)) for s in live]
        rows += [
            game_score(s, s["source"], "approved" if s["source"] == "pre_makeup" else "applied")
            for s in stand_in
        ]
        rows.sort(key=lambda r: (r[0], r[2], r[3], r[4]))  # week, division, group, game
        rows += [
            (None, None, "", None, None, p["machine"], self.name[p["player_id"]], p["score"],
             None, None, None, None, "pre-makeup", p["status"], p["reason"],
             self.who(p["submitted_by"]),
             self.when(p["submitted_at"]), self.who(p["decided_by"]), self.when(p["decided_at"]),
             "")
            for p in pre
        ]  # fmt: skip
        return ExportTable("scores", SCORE_COLUMNS, tuple(rows))

    async def results(self, conn: aiosqlite.Connection) -> ExportTable:
        """R7: each player's night: match points, bonus, multiplier, league points,
        TLP, and their movement for the next week (R8.3-R8.5): as stored, or for
        a night finalized before movement was kept, worked out again by the rules."""
        season_id = self.ctx.season.id
        where = {g.group_id: g for g in await season_history.groups_of_season(conn, season_id)}
        days = {n.week: n.date for n in await leagues.nights(conn, season_id)}
        found = await results.results_of_season(conn, season_id)
        places = [
            NightPlace(r.week, r.player_id, where[r.group_id].pool, where[r.group_id].position,
                       r.place, r.took_part, r.match_points)
            for r in found
        ]  # fmt: skip
        moved = night_moves(places, two_swap_match_points=self.ctx.season.two_swap_match_points)
        rows = tuple(
            (r.week, days.get(r.week), where[r.group_id].pool, where[r.group_id].position,
             r.place, self.name[r.player_id], r.attendance, r.match_points, r.bonus_base,
             r.multiplier, r.bonus, r.league_points, r.tlp, shown(r.tns), TALLY[r.week_result],
             r.movement or moved.get((r.week, r.player_id), ""), r.used_pre_makeup_night,
             Cents(r.payout_cents))
            for r in found
        )  # fmt: skip
        return ExportTable("results", RESULT_COLUMNS, rows)

    def standings(self, standing: list[StandingRow]) -> ExportTable:
        rows = tuple(
            (r.rank, self.name[r.player.id], r.division, r.league_points, shown(r.tns), r.nights,
             r.multiplier)
            for r in standing
        )  # fmt: skip
        columns = ("rank", "player", "division", "league_points", "tns", "nights", "multiplier")
        return ExportTable("standings", columns, rows)

    async def playoffs(self, conn: aiosqlite.Connection, night: Night | None) -> ExportTable:
        """R13.1, R13.5, R13.6: each division's field by standing, with its check-in,
        replacements and places (no rows before playoff night is set)."""
        entries = await playoff_nights.field(conn, night.id) if night is not None else []
        rows = tuple(
            (night.date, e.pool, e.standing, self.name[e.player_id],
             "qualifier" if e.qualified else "alternate", self.when(e.checked_in_at),
             self.name[e.replaced_by] if e.replaced_by is not None else "", e.place)
            for e in entries if night is not None
        )  # fmt: skip
        return ExportTable("playoffs", PLAYOFF_COLUMNS, rows)

    async def playoff_games(self, conn: aiosqlite.Connection, night: Night | None) -> ExportTable:
        """R13.3: a bracket's games (a final group's are in games.csv and scores.csv)."""
        found = await playoff_matches.matches(conn, night.id) if night is not None else []
        machine = {m.id: m.name for m in await people.machines(conn, self.ctx.league.id)}
        rows = tuple(
            (night.date, m.pool, m.round, g.number, machine[g.machine_id],
             self.name[g.picked_by], self.name[m.high_id], g.high_score, self.name[m.low_id],
             g.low_score, self.name[m.high_id if g.high_score > g.low_score else m.low_id])
            for m in found for g in m.games
            if night is not None and g.high_score is not None and g.low_score is not None
        )  # fmt: skip
        return ExportTable("playoff_games", BRACKET_COLUMNS, rows)

    async def money(self, conn: aiosqlite.Connection) -> ExportTable:
        """R10: dues paid, additions to the fund, nightly payouts, season prizes."""
        season_id = self.ctx.season.id
        rows: list[tuple[ExportValue, ...]] = [
            ("dues", d["week"], date.fromisoformat(d["date"]), self.name[d["player_id"]],
             Cents(d["cents"]), "", self.who(d["recorded_by"]), self.when(d["recorded_at"]))
            for d in await exports.dues(conn, season_id)
        ]  # fmt: skip
        rows += [
            ("fund addition", None, None, "", Cents(f["cents"]), f["note"],
             self.who(f["recorded_by"]), self.when(f["recorded_at"]))
            for f in await exports.fund_additions(conn, season_id)
        ]  # fmt: skip
        rows += [
            ("payout", p["week"], date.fromisoformat(p["date"]), self.name[p["player_id"]],
             Cents(p["payout_cents"]), "", self.who(p["finalized_by"]),
             self.when(p["finalized_at"]))
            for p in await exports.payouts(conn, season_id)
        ]  # fmt: skip
        prizes = await prizes_in(conn, self.ctx)
        status = "" if prizes.final else "provisional: the season is not over"
        for division, shares in prizes.divisions.items():
            for share in shares:
                what = f"place {share.place}" if share.place else "consolation"
                note = ", ".join(x for x in (f"division {division}" if division else "", what,
                                             status) if x)  # fmt: skip
                rows.append(("prize", None, None, share.player, Cents(share.cents), note, "", None))
        return ExportTable("money", MONEY_COLUMNS, tuple(rows))

    async def audit(self, conn: aiosqlite.Connection) -> ExportTable:
        """R12.4: every score change, oldest first."""
        entries = await audit.changes(conn, self.ctx.season.id, None, None)
        rows = tuple(
            (self.when(e.change.changed_at), e.week, e.game, self.name[e.change.player_id],
             e.change.old_score, e.change.new_score, e.change.kind.replace("_", " "),
             e.change.reason, self.who(e.change.changed_by))
            for e in reversed(entries)
        )  # fmt: skip
        columns = ("changed_at", "week", "game", "player", "old_score", "new_score", "kind",
                   "reason", "changed_by")  # fmt: skip
        return ExportTable("audit", columns, rows)


def final_standings(standing: list[StandingRow], decided: SeasonOrder | None) -> ExportTable:
    """For the IFPA results submission: finishing position, name, IFPA number.
    With divisions (R9) every player of division A finishes above division B,
    each division in playoff order once the playoffs are decided (`decided`,
    R13.6), else in standings order (R11.1)."""
    ordered = sorted(standing, key=lambda r: (r.division == "B", r.rank))
    if decided is not None:
        row_of = {r.player.id: r for r in standing}
        placed = [row_of[p] for order in decided.divisions.values() for p in order if p in row_of]
        ordered = placed + [r for r in ordered if r not in placed]
    rows = tuple(
        (n, r.player.name, r.player.ifpa_number, r.league_points, r.division)
        for n, r in enumerate(ordered, start=1)
    )
    return ExportTable("final_standings", FINAL_COLUMNS, rows)
