"""Services: what the server does, as transactions over the store (no HTTP in here)."""
