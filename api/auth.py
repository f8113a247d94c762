"""API keys: who may call the REST API, and on which namespaces.

Keys are written as ``key1:ns1,ns2;key2:*`` (in `SIMPLEMEM_API_KEYS` or passed to `run_server`).
A key limited to some namespaces gets 403 on every other one; ``*`` (or no list) means all.
With no key configured the API is open, which is why `run_server` then binds to loopback only.
"""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from fastapi import Request

from simplemem_graph.config import Settings
from simplemem_graph.errors import ConfigError, SimpleMemError

ALL_NAMESPACES = "*"


class AuthenticationError(SimpleMemError):
    """No API key, or one the server does not know (HTTP 401)."""


class NamespaceForbiddenError(SimpleMemError):
    """A valid API key used on a namespace it is not allowed to touch (HTTP 403)."""


def parse_api_keys(spec: str) -> dict[str, frozenset[str] | None]:
    """Parse ``key1:ns1,ns2;key2:*`` into ``{key: allowed namespaces or None for all}``.

    Args:
        spec: keys separated by ``;``, each optionally followed by ``:`` and a comma list of
            namespaces (``*`` or nothing for every namespace).

    Returns:
        A mapping from key to the namespaces it may use (None: any namespace).

    Raises:
        ConfigError: an empty key, or the same key twice.

    Example:
        >>> parse_api_keys("k1:acme,beta;admin:*")
        {'k1': frozenset({'acme', 'beta'}), 'admin': None}
    """
    keys: dict[str, frozenset[str] | None] = {}
    for position, entry in enumerate(spec.split(";"), start=1):
        entry = entry.strip()
        if not entry:
            continue
        key, _, scope = entry.partition(":")
        key = key.strip()
        if not key:
            raise ConfigError(f"api keys: entry {position} ({entry!r}) has no key before ':'")
        if key in keys:
            raise ConfigError(f"api keys: key number {position} appears twice")
        namespaces = frozenset(ns.strip() for ns in scope.split(",") if ns.strip())
        keys[key] = None if not namespaces or ALL_NAMESPACES in namespaces else namespaces
    return keys


ApiKeysSpec = str | Sequence[str] | Mapping[str, frozenset[str] | None] | None


def load_api_keys(keys: ApiKeysSpec = None) -> ApiKeyring:
    """A keyring from a spec (``"k1:ns1;k2"``), a list of entries (``["k1:ns1", "k2"]``, as the
    CLI's repeated ``--api-key`` gives) or a parsed mapping; None reads `SIMPLEMEM_API_KEYS`.
    An empty result means authentication is off."""
    if keys is None:
        keys = Settings.from_env().api_keys or ""
    if isinstance(keys, str):
        keys = parse_api_keys(keys)
    elif not isinstance(keys, Mapping):
        keys = parse_api_keys(";".join(keys))
    return ApiKeyring(dict(keys))


@dataclass(frozen=True)
class Principal:
    """The caller of one request: which key (None when auth is off) and what it may touch."""

    key_label: str | None
    namespaces: frozenset[str] | None  # None: every namespace

    def may_use(self, namespace: str) -> bool:
        return self.namespaces is None or namespace in self.namespaces


@dataclass
class ApiKeyring:
    """The configured keys; empty means authentication is off."""

    keys: dict[str, frozenset[str] | None] = field(default_factory=dict)

    @property
    def enabled(self) -> bool:
        return bool(self.keys)

    def authenticate(self, presented: str | None) -> Principal:
        """The principal for a presented key; raises AuthenticationError when it is wrong."""
        if not self.enabled:
            return Principal(key_label=None, namespaces=None)
        if not presented:
            raise AuthenticationError("no API key: send `Authorization: Bearer <key>` or `X-API-Key: <key>`")
        for key, namespaces in self.keys.items():
            # Constant-time comparison, so response timing does not leak how much of a key matched.
            if hmac.compare_digest(key.encode(), presented.encode()):
                return Principal(key_label=key[:4] + "…", namespaces=namespaces)
        raise AuthenticationError("unknown API key")

    def authorize(self, principal: Principal, namespace: str) -> None:
        """Raise NamespaceForbiddenError unless the principal may use `namespace`."""
        if not principal.may_use(namespace):
            raise NamespaceForbiddenError(f"this API key may not use namespace {namespace!r}")


def presented_key(request: Request) -> str | None:
    """The key a request carries, from `Authorization: Bearer`, `X-API-Key` or HTTP Basic."""
    return presented_key_of(request.headers)


def presented_key_of(headers: Mapping[str, str]) -> str | None:
    """The key in lower-cased request headers: `Authorization: Bearer <key>`, `X-API-Key: <key>`,
    or `Authorization: Basic` with the key as password (what a browser sends once it has asked
    for it, so /docs and the inspector work behind keys)."""
    header = headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    if scheme.lower() == "basic" and token.strip():
        try:
            user, _, password = base64.b64decode(token.strip(), validate=True).decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return None
        return password or user or None
    return headers.get("x-api-key") or None
