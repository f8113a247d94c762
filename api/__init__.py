"""The REST API and web graph inspector of simplemem-graph (`simplemem-graph serve`)."""

from api.app import create_app, run_server

__all__ = ["create_app", "run_server"]
