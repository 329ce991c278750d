"""The tool commands: tournaments, telemetry export, screenshots and the self-test."""
