"""Settings: the only module that reads the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from simplemem_graph.embedding import DEFAULT_EMBEDDING_MODEL
from simplemem_graph.errors import ConfigError, TurnTooLargeError
from simplemem_graph.models import DEFAULT_NAMESPACE

# The largest turn any entry point (CLI, REST, MCP, Python) accepts. A dialogue turn is a few
# hundred characters; far beyond this is a pasted file, which spaCy refuses past 1M characters
# and which would hold its namespace's consolidation for minutes. Refused before anything is written.
MAX_TURN_CHARS = 100_000

NEO4J_SCHEMES = ("neo4j://", "neo4j+s://", "neo4j+ssc://", "bolt://", "bolt+s://", "bolt+ssc://")


@dataclass(frozen=True)
class DecayPolicy:
    """The seed's stepped decay: full weight for `full_days`, linear down to `floor` by
    `archive_days`, archive candidates beyond. Configurable per namespace."""

    full_days: float = 30.0
    archive_days: float = 90.0
    floor: float = 0.3
    hot_access_count: int = 3  # retrieved at least this often recently: stays hot
    hot_limit: int = 5000  # most events in the hot tier (the seed keeps it at a few thousand)

    def weight(self, age_days: float) -> float:
        if age_days <= self.full_days:
            return 1.0
        if age_days >= self.archive_days:
            return self.floor
        span = self.archive_days - self.full_days
        return 1.0 - (1.0 - self.floor) * (age_days - self.full_days) / span


@dataclass(frozen=True)
class Settings:
    store: str | None = None  # sqlite path / sqlite:///path / neo4j://... ; None = user data dir
    namespace: str = DEFAULT_NAMESPACE
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    # A JSON written by bench/calibrate_embedder.py: stage 2's cosine thresholds for a model the
    # package ships no calibration for (SIMPLEMEM_CALIBRATION). None: the shipped set.
    calibration: str | None = None
    neo4j_user: str | None = None
    neo4j_password: str | None = None
    neo4j_database: str | None = None
    # How long the Neo4j driver keeps retrying a transaction on transient errors (a restarting
    # server, a leader switch) before the error reaches the caller.
    neo4j_retry_s: float = 120.0
    api_keys: str | None = None  # "key1:ns1,ns2;key2:*" (SIMPLEMEM_API_KEYS); None: no auth
    # Origins whose browser pages may call the REST API (SIMPLEMEM_CORS_ORIGINS, comma-separated);
    # none by default.
    cors_origins: tuple[str, ...] = ()
    # The only folder the MCP tool `replay_log` reads files from (SIMPLEMEM_REPLAY_DIR); None:
    # the tool reads no file at all.
    replay_dir: str | None = None
    recall_k: int = 15
    final_k: int = 5
    decay: DecayPolicy = field(default_factory=DecayPolicy)
    namespace_decay: dict[str, DecayPolicy] = field(default_factory=dict)

    @classmethod
    def from_env(cls, **overrides) -> Settings:
        env = os.environ
        values = {
            "store": env.get("SIMPLEMEM_STORE") or None,
            "namespace": env.get("SIMPLEMEM_NAMESPACE") or DEFAULT_NAMESPACE,
            "embedding_model": env.get("SIMPLEMEM_EMBEDDING_MODEL") or DEFAULT_EMBEDDING_MODEL,
            "calibration": env.get("SIMPLEMEM_CALIBRATION") or None,
            "neo4j_user": env.get("NEO4J_USER") or None,
            "neo4j_password": env.get("NEO4J_PASSWORD") or None,
            "neo4j_database": env.get("NEO4J_DATABASE") or None,
            "neo4j_retry_s": _float_env(env, "NEO4J_RETRY_S", 120.0),
            "api_keys": env.get("SIMPLEMEM_API_KEYS") or None,
            "cors_origins": tuple(
                o.strip() for o in env.get("SIMPLEMEM_CORS_ORIGINS", "").split(",") if o.strip()
            ),
            "replay_dir": env.get("SIMPLEMEM_REPLAY_DIR") or None,
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def decay_for(self, namespace: str) -> DecayPolicy:
        return self.namespace_decay.get(namespace, self.decay)


def _float_env(env, name: str, default: float) -> float:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError as e:
        raise ConfigError(f"{name}={raw!r}: expected a number of seconds") from e
    if value < 0:
        raise ConfigError(f"{name}={raw!r}: expected a number of seconds >= 0")
    return value


def default_store_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("simplemem-graph")) / "memory.db"


def is_neo4j_uri(uri: str) -> bool:
    return uri.startswith(NEO4J_SCHEMES)


def sqlite_path(uri: str | None) -> str:
    """`sqlite:///x.db`, a plain path, `:memory:` or None (the user data dir) -> a path string."""
    if uri is None:
        path = default_store_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return str(path)
    if uri.startswith("sqlite:///"):
        return uri[len("sqlite:///") :] or ":memory:"
    if "://" in uri:
        raise ConfigError(
            f"store: unsupported URI {uri!r}; use a file path, sqlite:///path.db, or one of {NEO4J_SCHEMES}"
        )
    return uri


def check_turn_size(text: str, where: str) -> None:
    """Raise TurnTooLargeError for a turn text over MAX_TURN_CHARS (`where` names the input)."""
    if len(text) > MAX_TURN_CHARS:
        raise TurnTooLargeError(
            f"{where}: `text` has {len(text):,} characters; a turn may have at most {MAX_TURN_CHARS:,}"
        )


def validate_namespace(namespace: str) -> str:
    if not namespace or len(namespace) > 128 or any(c in namespace for c in "\x00\n\r\t/\\|"):
        raise ConfigError(
            f"namespace: {namespace!r} is not valid; use 1-128 characters without slashes, "
            "pipes or control characters"
        )
    return namespace
