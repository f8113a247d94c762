"""One root error, one subclass per failure; messages name the stage and the item."""


class SimpleMemError(Exception):
    """Root of every error simplemem-graph raises on purpose."""


class InputError(SimpleMemError, ValueError):
    """Bad user input: a file, a line or a field that cannot be used. CLI exit 2, HTTP 4xx."""


class TurnTooLargeError(InputError):
    """A turn longer than `config.MAX_TURN_CHARS`: refused at every entry point (CLI exit 2, HTTP
    413, the MCP tool's error, this exception in Python), before anything is written."""


class ConfigError(SimpleMemError, ValueError):
    """A setting is missing or malformed (store URI, model name, namespace...)."""


class NotFoundError(SimpleMemError, LookupError):
    """An event, entity or namespace that does not exist."""


class StoreUnavailableError(SimpleMemError):
    """The store cannot be reached (Neo4j down, SQLite file locked or unreadable)."""


class NoSuchStoreError(ConfigError):
    """A read-only command named a store file that does not exist (a mistyped path would
    otherwise create an empty store and answer nothing)."""


class UnknownQueryError(SimpleMemError, KeyError):
    """A Cypher query name with no file in cypher/."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class ModelLoadError(SimpleMemError):
    """An embedding model or spaCy pipeline could not be loaded."""


class ConsolidationError(SimpleMemError):
    """A consolidation pass failed; nothing from that pass was written."""


class EmbeddingModelMismatchError(ConfigError):
    """The store's vectors were made with another embedding model than the one in use."""
