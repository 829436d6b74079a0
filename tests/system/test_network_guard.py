"""The guard itself: an unregistered connection or lookup fails loudly."""

from __future__ import annotations

import socket

import pytest

from tests.conftest import NetworkGuard, RealNetworkCall


def test_connection_to_an_unregistered_port_is_refused(network_guard: NetworkGuard) -> None:
    with socket.socket() as sock, pytest.raises(RealNetworkCall, match="127.0.0.1:8000"):
        sock.connect(("127.0.0.1", 8000))
    network_guard.violations.clear()  # the failure was the point of this test


def test_outside_names_are_not_resolved(network_guard: NetworkGuard) -> None:
    with pytest.raises(RealNetworkCall, match="example.org"):
        socket.getaddrinfo("example.org", 443)
    network_guard.violations.clear()
