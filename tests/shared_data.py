"""Where the development data lives: ../shared/data beside the checkout (as in CI), or
SIMPLEMEM_SHARED_DATA."""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA_DIR = Path(os.environ.get("SIMPLEMEM_SHARED_DATA", REPO.parent / "shared" / "data"))
LOCOMO_DEV = DATA_DIR / "locomo" / "locomo_dev.json"
RESTORATION_DEV = DATA_DIR / "restoration_dev.jsonl"
TIMELINE_DEV = DATA_DIR / "timeline_dev.json"
