"""The web server: HTTP routes and the WebSocket protocol over the services (docs/protocol.md)."""
