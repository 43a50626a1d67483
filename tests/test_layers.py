"""The layers point one way (docs/architecture.md, "The layers"): each module
of bot/ and cogs/ imports only the layers listed for its own layer in ALLOWED.

    cogs, scheduler ──> services ──> repositories ──> storage (bot.database)
          │                │   └──────────> rules (bot.scoring, bot/rules)
          └──> ui ──> outcomes, models, rules, parsing

(a feature's modules in cogs/<feature>/ in the layer of their role: its
service with the services, its `*_text.py` with ui, and so on.)

The rule for result types: what a service returns for the bot to show is a
frozen dataclass in `bot/services/outcomes/` (a module per area); a service's
errors are in `bot/services/errors.py`. Those two are the layer "outcomes": data and
error types that import nothing of the project but `bot.models` (and the
rules), so `bot/ui` may import them and still never reaches a service. `bot/ui`
imports no other part of `bot.services`; services import nothing of
`bot/ui`, cogs, the scheduler or discord; a service returns data, and the
cog or the scheduler asks the words (a feature's `*_text.py`, `bot.ui.render`)
to word it. The rules import no other
bot package (only `bot.rules` itself) and nothing of discord or the database.
`bot.client`, `bot.__main__`, `bot.demo` and `bot.example` are the composition
root ("app"): they wire everything together and may import anything.

A feature's package (cogs/<feature>/) sits at the edge: its modules take the
layer of their role (FEATURE_ROLES), and nothing of the shared core (bot/, but
the composition root and the outbox's sender, which wire and word everything)
imports a feature, so the core stays below every feature.

The check reads every module with `ast` (imports inside functions and under
`if TYPE_CHECKING:` count too), so it needs no import of the code it checks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Longest prefix wins. Every module of bot/ and cogs/ must fall in one layer.
LAYERS = {
    "bot.rules": "rules",
    "bot.scoring": "rules",
    "bot.models": "models",
    "bot.outbox_kinds": "models",  # what an owed message is and what it is about
    "bot.parsing": "parsing",
    "bot.text": "text",
    "bot.photos": "parsing",  # a photo sent with a score, checked and cleaned
    "bot.config": "config",
    "bot.database": "storage",
    "bot.database_errors": "storage",
    "bot.database_files": "storage",
    "bot.quick_reads": "storage",
    "bot.migrate": "storage",
    "bot.restore": "storage",
    "bot.repositories": "repositories",
    "bot.services.outcomes": "outcomes",
    "bot.services.errors": "outcomes",
    "bot.services": "services",
    "bot.ui": "ui",
    "bot.scheduler": "scheduler",
    "bot.client": "app",
    "bot.delivery": "delivery",  # the outbox's sender: words through ui, sends through discord
    "bot.components": "components",  # buttons, menus and pages of both cogs and the sender
    "bot.league_client": "client",  # what cogs, components and the sender need of the bot
    "bot.__main__": "app",
    "bot.demo": "app",
    "bot.demo_playoffs": "app",
    "bot.demo_night": "app",
    "bot.demo_attendance": "app",
    "bot.demo_script": "app",
    "bot.stage": "app",
    "bot.transcript": "app",
    "bot.example": "app",
    "bot.endpoints": "app",
    "bot.checks": "app",
    "bot.keeping": "app",
    "bot.lifecycle": "app",
    "cogs": "cogs",
    "standin": "standin",
}

# Which other layers a layer may import (its own layer always).
ALLOWED = {
    "rules": set(),
    "models": set(),
    "outcomes": {"models", "rules"},
    "text": set(),  # pure: checks what people type, makes CSV cells safe
    "parsing": {"rules", "models", "text"},
    "config": set(),
    "storage": set(),
    "repositories": {"models", "storage"},
    "services": {"outcomes", "repositories", "rules", "models", "storage", "text"},
    "ui": {"outcomes", "models", "rules", "parsing", "text"},
    "scheduler": {"services", "outcomes", "ui", "rules", "storage"},
    "client": {"config", "storage", "scheduler", "models"},
    "components": {
        "client",
        "services",
        "outcomes",
        "ui",
        "parsing",
        "text",
        "rules",
        "models",
        "storage",
    },
    "delivery": {
        "client",
        "components",
        "services",
        "outcomes",
        "ui",
        "rules",
        "models",
        "storage",
    },
    "cogs": {
        "client",
        "components",
        "services",
        "outcomes",
        "ui",
        "parsing",
        "text",
        "rules",
        "models",
    },
    "app": set(LAYERS.values()),  # the composition root wires everything
}

# Packages outside the project a layer must not import.
FORBIDDEN_PACKAGES = {
    "rules": {"discord", "aiosqlite", "sqlite3", "apscheduler"},
    "models": {"discord", "aiosqlite", "sqlite3", "apscheduler"},
    "outcomes": {"discord", "aiosqlite", "sqlite3", "apscheduler"},
    "parsing": {"discord", "aiosqlite", "sqlite3", "apscheduler"},
    "text": {"discord", "aiosqlite", "sqlite3", "apscheduler"},
    "repositories": {"discord", "apscheduler"},
    "services": {"discord", "apscheduler"},
    "ui": {"aiosqlite", "sqlite3", "apscheduler"},
    "components": {"aiosqlite", "sqlite3", "apscheduler"},
    "cogs": {"aiosqlite", "sqlite3", "apscheduler"},
}


# A feature's package, cogs/<feature>/, holds the feature's modules, each named
# for the feature and its role; each role is the layer of its kind (the shared
# core stays below, in bot/). cogs/stats/: stats_cog.py, stats.py the service,
# stats_outcomes.py, stats_text.py (stats_views.py when it has buttons). A second
# module of a role ends like the first (scores_form_cog.py); any other
# <feature>_<what>.py is more of its service (scorecards_decisions.py).
FEATURE_ROLES = {
    "_cog": "cogs",  # its slash commands (and its setup())
    "_outcomes": "outcomes",  # what the service returns, frozen dataclasses
    "_text": "ui",  # how it reads on a phone
    "_views": "components",  # its buttons, menus and forms
}


NOT_FEATURES = {"league"}  # cogs/league/: the /league groups by subject, all of them cogs


def feature_layer(parts: list[str]) -> str | None:
    """The layer of cogs.<feature>.<feature>[_role] by its role; None for a module
    of a feature's package named for no role of it (so it is in no layer)."""
    if len(parts) < 3 or parts[0] != "cogs" or parts[1] in NOT_FEATURES:
        return None
    feature, module = parts[1], parts[2]
    if module != feature and not module.startswith(feature + "_"):
        return None
    return next((FEATURE_ROLES[r] for r in FEATURE_ROLES if module.endswith(r)), "services")


def layer_of(name: str) -> str | None:
    if name == "bot":  # bot/__init__.py
        return "app"
    parts = name.split(".")
    if len(parts) >= 3 and parts[0] == "cogs" and parts[1] not in NOT_FEATURES:
        return feature_layer(parts)  # a feature's module, by its role
    for prefix in sorted(LAYERS, key=len, reverse=True):
        if name == prefix or name.startswith(prefix + "."):
            return LAYERS[prefix]
    return None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(tree: ast.AST) -> list[str]:
    """Every absolute module (or module.name) the source imports."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def violations(module: str, source: str) -> list[str]:
    """Why `module` (with this source) breaks the layering; empty when it does not."""
    own = layer_of(module)
    if own is None:
        return [f"{module} is in no layer; add it to LAYERS"]
    found = []
    for name in imported(ast.parse(source)):
        top = name.split(".")[0]
        if top in FORBIDDEN_PACKAGES.get(own, set()):
            found.append(f"{module} ({own}) imports {name}")
            continue
        if top not in ("bot", "cogs", "standin"):
            continue
        target = layer_of(name)
        if target is None:
            found.append(f"{module} imports {name}, which is in no layer")
        elif target != own and target not in ALLOWED[own]:
            found.append(f"{module} ({own}) imports {name} ({target})")
    return found


MODULES = sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/**/*.py")])


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_module_imports_only_the_layers_below_it(path: Path) -> None:
    assert violations(module_name(path), path.read_text(encoding="utf-8")) == []


ABOVE_THE_FEATURES = {"app", "delivery"}  # they wire and word everything


def reaches_a_feature(module: str, source: str) -> list[str]:
    """The features a module of the shared core imports; empty for a feature's
    own module, a cog and what sits above the features."""
    if not module.startswith("bot") or layer_of(module) in ABOVE_THE_FEATURES:
        return []
    return [
        f"{module} ({layer_of(module)}) imports {name}, of a feature"
        for name in imported(ast.parse(source))
        if name.startswith("cogs.")
    ]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_shared_core_imports_no_feature(path: Path) -> None:
    assert reaches_a_feature(module_name(path), path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        pytest.param("bot.services.fake", "from cogs.stats import stats\n",
                     ["bot.services.fake (services) imports cogs.stats.stats, of a feature"],
                     id="a shared service imports a feature's service"),
        pytest.param("bot.ui.fake", "def f():\n    from cogs.money.money_text import dollars\n",
                     ["bot.ui.fake (ui) imports cogs.money.money_text.dollars, of a feature"],
                     id="shared words import a feature's, inside a function"),
        pytest.param("bot.delivery.fake", "from cogs.stats import stats_text\n", [],
                     id="the sender words a feature's post"),
        pytest.param("cogs.money.money", "from cogs.stats import stats\n", [],
                     id="a feature imports another"),
    ],
)  # fmt: skip
def test_the_core_check_catches_a_feature_import(
    module: str, source: str, expected: list[str]
) -> None:
    assert reaches_a_feature(module, source) == expected


def test_the_modules_are_found() -> None:
    """Guards the test above against silently checking nothing."""
    names = {module_name(p) for p in MODULES}
    assert {
        "bot.scoring",
        "bot.services.announcements",
        "bot.ui.render",
        "cogs.scores.scores_cog",
    } <= names


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        pytest.param(
            "bot.services.fake", "from bot.ui import render\n",
            ["bot.services.fake (services) imports bot.ui.render (ui)"],
            id="a service imports ui",
        ),
        pytest.param(
            "bot.services.fake", "import discord\n",
            ["bot.services.fake (services) imports discord"], id="a service imports discord",
        ),
        pytest.param(
            "bot.repositories.fake", "from cogs.standings.standings_cog import Standings\n",
            ["bot.repositories.fake (repositories) imports "
             "cogs.standings.standings_cog.Standings (cogs)"],
            id="a repository imports a cog",
        ),
        pytest.param(
            "bot.ui.fake", "from bot.services import scores\n",
            ["bot.ui.fake (ui) imports bot.services.scores (services)"],
            id="ui imports a service",
        ),
        pytest.param(
            "bot.rules.fake", "from bot.models import Player\nimport aiosqlite\n",
            ["bot.rules.fake (rules) imports bot.models.Player (models)",
             "bot.rules.fake (rules) imports aiosqlite"],
            id="the rules import a model and the database",
        ),
        pytest.param(
            "bot.rules.fake", "def f():\n    from bot.services.picks import lock_picks\n",
            ["bot.rules.fake (rules) imports bot.services.picks.lock_picks (services)"],
            id="an import inside a function counts",
        ),
        pytest.param("bot.newthing", "", ["bot.newthing is in no layer; add it to LAYERS"],
                     id="a module in no layer"),
        pytest.param(
            "bot.ui.fake",
            "from bot.services.outcomes.posts import Post\nfrom bot.scoring import WEEKDAYS\n",
            [], id="ui imports outcomes and rules",
        ),
        pytest.param(
            "cogs.fake.fake", "from cogs.fake import fake_text\nimport discord\n",
            ["cogs.fake.fake (services) imports cogs.fake.fake_text (ui)",
             "cogs.fake.fake (services) imports discord"],
            id="a feature's service imports its text and discord",
        ),
        pytest.param(
            "cogs.fake.fake_outcomes", "from cogs.other.other import total\n",
            ["cogs.fake.fake_outcomes (outcomes) imports cogs.other.other.total (services)"],
            id="a feature's outcomes import another feature's service",
        ),
        pytest.param(
            "cogs.fake.fake_text",
            "from cogs.fake.fake_outcomes import Shown\nfrom cogs.other.other_text import cents\n",
            [], id="a feature's text imports its outcomes and another's text",
        ),
        pytest.param(
            "cogs.fake.fake_decisions", "from cogs.fake.fake_views import Button\n",
            ["cogs.fake.fake_decisions (services) imports cogs.fake.fake_views.Button "
             "(components)"],
            id="more of a feature's service imports its views",
        ),
        pytest.param(
            "cogs.fake.choices", "", ["cogs.fake.choices is in no layer; add it to LAYERS"],
            id="a feature's module named for no role of it",
        ),
        pytest.param(
            "cogs.league.fake", "from cogs.fake.fake import due\nimport aiosqlite\n",
            ["cogs.league.fake (cogs) imports aiosqlite"],
            id="a module of a package that is no feature's is a cog",
        ),
        pytest.param(
            "bot.scheduler",
            "from cogs.fake.fake import due\nfrom cogs.fake.fake_cog import Fake\n",
            ["bot.scheduler (scheduler) imports cogs.fake.fake_cog.Fake (cogs)"],
            id="the scheduler imports a feature's service, not its cog",
        ),
    ],
)  # fmt: skip
def test_the_check_catches_a_violating_module(
    module: str, source: str, expected: list[str]
) -> None:
    assert violations(module, source) == expected


CLOCK_CALLS = {"now", "today", "utcnow", "monotonic", "perf_counter", "time_ns"}


def clock_reads(source: str) -> set[str]:
    """`datetime.now()`, `date.today()`, `time.time()` … (not `moment.time()`)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr, owner = node.func.attr, node.func.value
            if attr in CLOCK_CALLS or (
                attr == "time" and isinstance(owner, ast.Name) and owner.id == "time"
            ):
                found.add(attr)
    return found


@pytest.mark.parametrize(
    "path",
    sorted(
        [
            *ROOT.glob("bot/services/*.py"),
            *(
                p
                for p in ROOT.glob("cogs/*/*.py")
                if feature_layer(["cogs", p.parent.name, p.stem]) == "services"
            ),
            *ROOT.glob("bot/repositories/*.py"),
        ]
    ),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_services_and_repositories_read_no_clock(path: Path) -> None:
    """`now` is passed in (from the interaction or the scheduler's clock)."""
    assert clock_reads(path.read_text(encoding="utf-8")) == set()


def test_the_clock_check_catches_a_clock_read() -> None:
    source = "x = datetime.now(UTC)\ny = date.today()\nz = time.time()\nw = local.time()\n"
    assert clock_reads(source) == {"now", "today", "time"}


# --- no circles -----------------------------------------------------------------------------

PACKAGES = ("bot", "cogs", "standin", "bench")


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """module -> the project's modules it imports (`from a.b import c` is a.b.c when
    that is a module, else a.b); imports inside functions and TYPE_CHECKING count."""
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for name, source in sources.items():
        for target in imported(ast.parse(source)):
            while target and target not in sources:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import each other round in a circle (the strongly
    connected components of more than one module), each sorted, by Tarjan."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def project_sources() -> dict[str, str]:
    paths = sorted(p for package in PACKAGES for p in ROOT.glob(f"{package}/**/*.py"))
    return {module_name(p): p.read_text(encoding="utf-8") for p in paths}


def test_no_modules_import_each_other_round_in_a_circle() -> None:
    sources = project_sources()
    assert {"bot.client", "cogs.standings.standings_cog", "standin.server"} <= set(sources)
    assert "bench.burst" in sources
    assert circles(import_graph(sources)) == []


def test_the_circle_check_finds_a_circle_through_a_type_only_import() -> None:
    sources = {
        "bot.a": "from bot.b import B\n",
        "bot.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.c import C\n",
        "bot.c": "import bot.a\n",
        "bot.d": "from bot import a\n",
    }
    assert circles(import_graph(sources)) == [["bot.a", "bot.b", "bot.c"]]
    assert circles(import_graph({**sources, "bot.c": ""})) == []
