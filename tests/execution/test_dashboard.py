"""The local Dask cluster's dashboard listens on this machine only (docs/cluster.md): it has no
authentication, and shows the run's tasks, logs and the workers' machine to whoever reaches it.
Before, ``dashboard_address=":0"`` bound it on every interface while ktr printed 127.0.0.1."""

from __future__ import annotations

import pytest

from ktr.execution import dask_engine
from ktr.execution.engines import Engine

pytestmark = pytest.mark.slow  # a Dask cluster


def test_the_local_cluster_s_dashboard_listens_on_127_0_0_1_only():
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("distributed")
    with dask_engine.connect(Engine("dask", workers=1)) as client:
        port = client.cluster.scheduler.http_server.port
        listening = {
            c.laddr.ip
            for c in psutil.Process().net_connections(kind="inet")
            if c.status == psutil.CONN_LISTEN and c.laddr.port == port
        }
        link = client.dashboard_link
    assert listening == {"127.0.0.1"} and link.startswith(f"http://127.0.0.1:{port}/")
