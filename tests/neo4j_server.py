"""A real Neo4j for the test session: the server at NEO4J_URI, else the Maven-built launcher.

The launcher (tests/neo4j-server/) is an in-process Neo4j 5.26 Community server on 127.0.0.1
with auth off and a throw-away data directory. This module builds it when its jar is missing or
stale, starts it on a free port, waits for its ready line, and stops it at the end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

LAUNCHER_DIR = Path(__file__).resolve().parent / "neo4j-server"
LAUNCHER_JAR = LAUNCHER_DIR / "target" / "neo4j-test-server.jar"
READY_PREFIX = "NEO4J_READY "


class Neo4jServerError(RuntimeError):
    """The launcher could not be built or started; the message says why and where the log is."""


@dataclass
class LauncherProcess:
    """A running launcher: its routing URI, process and log file."""

    uri: str
    process: subprocess.Popen
    log_path: Path

    def stop(self, timeout: float = 60.0) -> None:
        """SIGTERM (Neo4j shuts down cleanly and removes its data dir), SIGKILL if it hangs."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def missing_tools() -> list[str]:
    """The tools the launcher needs that are not on PATH (java to run it, mvn to build it)."""
    needed = ["java"] if _jar_is_fresh() else ["java", "mvn"]
    return [tool for tool in needed if shutil.which(tool) is None]


def _jar_is_fresh() -> bool:
    if not LAUNCHER_JAR.is_file():
        return False
    built = LAUNCHER_JAR.stat().st_mtime
    sources = [LAUNCHER_DIR / "pom.xml", *(LAUNCHER_DIR / "src").rglob("*")]
    return all(p.stat().st_mtime <= built for p in sources if p.is_file())


def build_launcher() -> Path:
    """Build the launcher jar with Maven unless it is up to date; return its path.

    Offline first (~/.m2 holds everything after one download), then online.
    """
    if _jar_is_fresh():
        return LAUNCHER_JAR
    command = ["mvn", "-q", "-B", "package", "-DskipTests"]
    for attempt in (["-o"], []):
        result = subprocess.run(
            [*command, *attempt], cwd=LAUNCHER_DIR, capture_output=True, text=True, timeout=900
        )
        if result.returncode == 0 and LAUNCHER_JAR.is_file():
            return LAUNCHER_JAR
    raise Neo4jServerError(f"Maven could not build {LAUNCHER_JAR}: {(result.stdout + result.stderr)[-2000:]}")


def jvm_flags() -> list[str]:
    """The launcher's JVM flags, shared with run.sh through jvm.options, then NEO4J_TEST_JAVA_OPTS
    (e.g. "-Xmx4g" for a benchmark at scale: a later flag wins)."""
    lines = (LAUNCHER_DIR / "jvm.options").read_text().splitlines()
    flags = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    return flags + os.environ.get("NEO4J_TEST_JAVA_OPTS", "").split()


def start_launcher(timeout: float = 180.0, *, port: int = 0, data_dir: Path | None = None) -> LauncherProcess:
    """Start the launcher (on `port`, 0: a free one) and wait until Bolt accepts connections.

    With `data_dir` the database lives there and survives a stop, so a test can restart the
    server on the same data (same port, same directory).

    Raises:
        Neo4jServerError: it exited early or was not ready within `timeout` seconds.
    """
    jar = build_launcher()
    log_path = Path(tempfile.mkstemp(prefix="simplemem-neo4j-", suffix=".log")[1])
    with log_path.open("w") as log:
        # Output goes to a file, not a pipe: a full pipe would stall the server once nobody reads it.
        env = {**os.environ, **({"NEO4J_TEST_DATA_DIR": str(data_dir)} if data_dir else {})}
        process = subprocess.Popen(
            ["java", *jvm_flags(), "-jar", str(jar), str(port)], stdout=log, stderr=subprocess.STDOUT, env=env
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log_path.read_text(errors="replace").splitlines():
            if line.startswith(READY_PREFIX):
                bolt = line.split()[1]
                return LauncherProcess(
                    uri="neo4j://" + bolt.removeprefix("bolt://"), process=process, log_path=log_path
                )
        if process.poll() is not None:
            raise Neo4jServerError(
                f"the Neo4j launcher exited with {process.returncode} before it was ready; "
                f"log {log_path}:\n{log_path.read_text(errors='replace')[-3000:]}"
            )
        time.sleep(0.25)
    LauncherProcess(uri="", process=process, log_path=log_path).stop()
    raise Neo4jServerError(f"the Neo4j launcher was not ready after {timeout:.0f}s; log {log_path}")


def configured_uri() -> str | None:
    """NEO4J_URI when the environment points the tests at a running server."""
    return os.environ.get("NEO4J_URI") or None


def configured_auth() -> tuple[str, str] | None:
    """(NEO4J_USER, NEO4J_PASSWORD) for a server with auth on; None for the launcher."""
    user = os.environ.get("NEO4J_USER")
    return (user, os.environ.get("NEO4J_PASSWORD", "")) if user else None
