"""The gateway: HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE, RESUME, dispatches.

A session outlives its websocket: when a connection drops (anything but a
clean 1000/1001 close by the client) its dispatches are kept, and a RESUME
with the session id replays those after the client's last sequence number,
then sends RESUMED, as Discord does. A RESUME of an unknown session gets
INVALID_SESSION (d: false) and the client identifies again.

Transport compression: discord.py 2.7 asks for `compress=zlib-stream` (or
`zstd-stream` when a zstd module is installed). zlib-stream is spoken as
Discord does (one zlib context per connection, every message ends with a
Z_SYNC_FLUSH); for anything else the stand-in sends plain text frames, which
discord.py reads as well.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from standin.world import INTENT_GUILD_MEMBERS

if TYPE_CHECKING:
    from standin.state import StandIn

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11
# Close codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
UNKNOWN_ERROR, UNKNOWN_OPCODE, DECODE_ERROR, NOT_AUTHENTICATED = 4000, 4001, 4002, 4003
AUTHENTICATION_FAILED, ALREADY_AUTHENTICATED = 4004, 4005
INVALID_SHARD = 4010
CLEAN_CLOSES = (1000, 1001)
REPLAY_LIMIT = 1000


def shard_of(guild_id: int, count: int) -> int:
    """Discord's rule: a server's events go to shard (guild_id >> 22) % num_shards."""
    return (guild_id >> 22) % count


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)  # (shard id, number of shards), from IDENTIFY
    seq: int = 0
    connection: Connection | None = None
    sent: list[dict[str, Any]] = field(default_factory=list)  # for RESUME replays

    def frame(self, event: str, data: Any) -> dict[str, Any]:
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.sent.append(frame)
        del self.sent[:-REPLAY_LIMIT]
        return frame


class Connection:
    """One websocket; sends are serialized so a zlib stream stays in order."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self.session: Session | None = None
        self.ready = False  # caught up after READY or RESUMED: dispatches go out live
        self.sent_seq = 0  # the highest sequence number sent on this connection
        self.closed_by_standin = False
        self._lock = asyncio.Lock()

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            self.sent_seq = max(self.sent_seq, frame.get("s") or 0)
            try:
                if self.zlib is not None:
                    data = self.zlib.compress(text.encode()) + self.zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError) as error:
                log.debug("gateway send failed: %s", error)

    async def close(self, code: int, message: str = "") -> None:
        self.closed_by_standin = True
        if not self.ws.closed:
            await self.ws.close(code=code, message=message.encode())


class Gateway:
    """Connections and sessions of the stand-in's one bot user."""

    def __init__(self, standin: StandIn, heartbeat_interval_ms: int) -> None:
        self.standin = standin
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.compressions: list[str | None] = []  # what each connection asked for
        self.identifies = 0
        self.resumes = 0
        self.invalidated = 0

    @property
    def connected(self) -> bool:
        return any(c.ready and not c.ws.closed for c in self.connections)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, heartbeat=None, max_msg_size=0, timeout=5.0)
        await ws.prepare(request)
        connection = Connection(ws, request.query.get("compress"))
        self.compressions.append(request.query.get("compress"))
        self.connections.add(connection)
        try:
            if request.query.get("encoding", "json") != "json":
                await connection.close(DECODE_ERROR, "only encoding=json is spoken here")
                return ws
            await connection.send(
                {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
            )
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    await connection.close(DECODE_ERROR, "send JSON text frames")
                    break
                try:
                    payload = json.loads(message.data)
                except ValueError:
                    await connection.close(DECODE_ERROR, "invalid JSON")
                    break
                await self._receive(connection, payload)
        finally:
            self.connections.discard(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                if not connection.closed_by_standin and ws.close_code in CLEAN_CLOSES:
                    # A client's clean close ends its session (Discord: cannot resume).
                    self.sessions.pop(session.id, None)
            self.standin.changed()
        return ws

    async def _receive(self, connection: Connection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            await connection.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif op in (PRESENCE, VOICE_STATE):
            if connection.session is None:
                await connection.close(NOT_AUTHENTICATED, "Not authenticated.")
        elif op == REQUEST_MEMBERS:
            await self._request_members(connection, data or {})
        else:
            await connection.close(UNKNOWN_OPCODE, f"Unknown opcode {op!r}.")

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        if connection.session is not None:
            await connection.close(ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if data.get("token") != self.standin.token:
            await connection.close(AUTHENTICATION_FAILED, "Authentication failed.")
            return
        shard = data.get("shard") or [0, 1]
        if (not isinstance(shard, list) or len(shard) != 2 or not all(isinstance(n, int)
                                                                      for n in shard)
                or not 0 <= shard[0] < shard[1]):  # fmt: skip
            await connection.close(INVALID_SHARD, "Invalid shard.")
            return
        self.identifies += 1
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents", 0)),
                          shard=(shard[0], shard[1]))  # fmt: skip
        self.sessions[session.id] = session
        session.connection = connection
        connection.session = session
        standin = self.standin
        guilds = [g for g in standin.guilds.values() if self.sees(session, g.id)]
        ready = {
            "v": 10,
            "shard": list(session.shard),
            "user": standin.bot_user.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": standin.gateway_url,
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "application": {"id": str(standin.application_id), "flags": 0},
            "_trace": ["discord-standin"],
        }
        session.frame("READY", ready)
        for guild in guilds:
            session.frame("GUILD_CREATE", self.guild_create(guild, session))
        await self._catch_up(connection, session)

    def guild_create(self, guild: Any, session: Session) -> dict[str, Any]:
        """Without the privileged members intent Discord lists only the bot itself."""
        if session.intents & INTENT_GUILD_MEMBERS:
            return guild.payload()
        me = guild.members.get(self.standin.bot_user.id)
        return guild.payload(members=[me] if me else [])

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.standin.token:
            await connection.close(AUTHENTICATION_FAILED, "Authentication failed.")
            return
        if session is None:
            self.invalidated += 1
            await connection.send({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        if session.connection is not None and session.connection is not connection:
            await session.connection.close(UNKNOWN_ERROR, "Session resumed elsewhere.")
        session.connection = connection
        connection.session = session
        connection.sent_seq = int(data.get("seq") or 0)
        await self._catch_up(connection, session, go_live=False)
        session.frame("RESUMED", {"_trace": ["discord-standin"]})
        await self._catch_up(connection, session)

    async def _catch_up(
        self, connection: Connection, session: Session, *, go_live: bool = True
    ) -> None:
        """Send what the session holds past what this connection has sent, until
        nothing is left; then (with no await in between) let dispatches go live."""
        while True:
            pending = [f for f in session.sent if f["s"] > connection.sent_seq]
            if not pending:
                break
            for frame in pending:
                await connection.send(frame)
            if connection.ws.closed:
                return
        if go_live:
            connection.ready = True
            self.standin.changed()

    async def _request_members(self, connection: Connection, data: dict[str, Any]) -> None:
        session = connection.session
        if session is None:
            await connection.close(NOT_AUTHENTICATED, "Not authenticated.")
            return
        guild = self.standin.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        members = [
            m.payload()
            for m in guild.members.values()
            if (not wanted or m.id in wanted) and m.user.username.lower().startswith(query)
        ]
        chunk = {
            "guild_id": str(guild.id),
            "members": members[: int(data.get("limit") or 0) or None],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await connection.send(session.frame("GUILD_MEMBERS_CHUNK", chunk))

    @staticmethod
    def sees(session: Session, guild_id: int | None) -> bool:
        """A shard gets its servers' events; events of no server (DMs) go to shard 0."""
        shard, count = session.shard
        return shard == (0 if guild_id is None else shard_of(guild_id, count))

    async def dispatch(self, event: str, data: Any, *, intent: int = 0) -> None:
        """Send an event to every session of the shard its server is on (live
        ones now, dropped ones on RESUME). `data` may be a function of the
        session (what it sees depends on its intents)."""
        for session in list(self.sessions.values()):
            if intent and not session.intents & intent:
                continue
            payload = data(session) if callable(data) else data
            if not self.sees(session, _guild_of(event, payload)):
                continue
            frame = session.frame(event, payload)
            connection = session.connection
            if connection is not None and connection.ready:
                await connection.send(frame)

    async def drop(self, *, resumable: bool) -> None:
        """Close every connection as a network failure would (code 4000)."""
        if not resumable:
            self.sessions.clear()
        for connection in list(self.connections):
            connection.ready = False
            await connection.close(UNKNOWN_ERROR, "Dropped by the stand-in.")

    async def close_all(self) -> None:
        self.sessions.clear()
        for connection in list(self.connections):
            connection.ready = False
            await connection.close(1001, "The stand-in is stopping.")


def _guild_of(event: str, payload: Any) -> int | None:
    """The server an event is about (None: none, e.g. a DM)."""
    if not isinstance(payload, dict):
        return None
    found = payload.get("guild_id")
    if found is None and event.startswith("GUILD_") and "id" in payload:
        found = payload["id"]
    return int(found) if found is not None else None
