"""The client address that per-address limits count (guests, claims, logins, sockets).

An IPv4 address counts as itself. An IPv6 address counts by its /64 network: a household or a
mobile phone gets at least a /64 from its provider, so counting single IPv6 addresses would give
one machine 2^64 budgets. Behind a balancer the address is the one it forwards, if the balancer
is trusted (``SPIELCENTER_TRUSTED_PROXIES``, docs/deploy.md); else everybody has its address.
"""

from __future__ import annotations

import ipaddress

from starlette.requests import HTTPConnection

IPV6_PREFIX = 64
UNKNOWN = "unknown"


def address_key(host: str) -> str:
    """The key one client's address counts under (see the module)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host or UNKNOWN  # not an IP (the tests' "testclient"): as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_PREFIX}", strict=False))
    return str(ip)


def client_address(connection: HTTPConnection) -> str:
    """The address key of the client of a request or a socket."""
    return address_key(connection.client.host if connection.client else UNKNOWN)
