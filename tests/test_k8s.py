"""The Kubernetes manifests, checked offline (no cluster can run here): each kustomization
renders; the core kinds pass kubernetes-validate (strict, Kubernetes 1.32); the KubeRay and
prometheus-operator kinds pass the JSON schemas in k8s/schemas, the pod templates inside a
RayCluster pass as core PodTemplates, and Ray's own KubeRay autoscaler reads the
RayCluster; the Prometheus rules pass `promtool check rules` and their unit tests; and the
parts that must agree — ports, names, the image's user and Ray version, the metrics the
rules and dashboard use — do."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml
from prometheus_client import CollectorRegistry

from service.metrics import ServiceMetrics
from tests.harness import REPO, require_tool

K8S = REPO / "k8s"
KUSTOMIZATIONS = ("base", "overlays/small", "overlays/large")
KUBERNETES_VERSION = "1.32.0"  # the machine's kubectl
SCHEMAS = {
    ("ray.io/v1", "RayCluster"): "raycluster_v1.json",
    ("monitoring.coreos.com/v1", "ServiceMonitor"): "servicemonitor_v1.json",
    ("monitoring.coreos.com/v1", "PodMonitor"): "podmonitor_v1.json",
    ("monitoring.coreos.com/v1", "PrometheusRule"): "prometheusrule_v1.json",
}


@cache
def rendered(name: str) -> tuple[dict[str, Any], ...]:
    kubectl = require_tool("kubectl", "CARDROOM_KUBECTL")
    done = subprocess.run(
        [kubectl, "kustomize", str(K8S / name)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return tuple(doc for doc in yaml.safe_load_all(done.stdout) if doc)


def one(name: str, kind: str, object_name: str | None = None) -> dict[str, Any]:
    found = [
        d
        for d in rendered(name)
        if d["kind"] == kind and object_name in (None, d["metadata"]["name"])
    ]
    assert len(found) == 1, (kind, object_name, len(found))
    return found[0]


def pod_specs(name: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every pod template's spec: the API's, the Ray head's and each worker group's."""
    yield "api", one(name, "StatefulSet")["spec"]["template"]["spec"]
    ray = one(name, "RayCluster")["spec"]
    yield "ray-head", ray["headGroupSpec"]["template"]["spec"]
    for group in ray["workerGroupSpecs"]:
        yield f"ray-{group['groupName']}", group["template"]["spec"]


@pytest.mark.parametrize("name", KUSTOMIZATIONS)
def test_every_object_passes_its_schema(name: str) -> None:
    kinds = set()
    for document in rendered(name):
        key = (document["apiVersion"], document["kind"])
        kinds.add(document["kind"])
        if key in SCHEMAS:
            schema = json.loads((K8S / "schemas" / SCHEMAS[key]).read_text())
            jsonschema.validate(document, schema, format_checker=jsonschema.FormatChecker())
        else:
            kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)
    assert {"StatefulSet", "Service", "Secret", "RayCluster", "NetworkPolicy"} <= kinds
    assert {"ServiceMonitor", "PodMonitor", "PrometheusRule", "ConfigMap"} <= kinds
    for part, spec in pod_specs(name):  # a RayCluster's templates are core pod templates
        template = {
            "apiVersion": "v1",
            "kind": "PodTemplate",
            "metadata": {"name": part},
            "template": {"spec": spec},
        }
        kubernetes_validate.validate(template, KUBERNETES_VERSION, strict=True)


def test_the_schemas_refuse_what_they_should() -> None:
    """A misspelt field, a ray start flag given as a number, a PodMonitor without
    endpoints: the validation above can fail."""
    ray = json.loads(json.dumps(one("base", "RayCluster")))
    schema = json.loads((K8S / "schemas" / "raycluster_v1.json").read_text())
    ray["spec"]["workerGroupSpecs"][0]["maxReplica"] = 3
    with pytest.raises(jsonschema.ValidationError, match="maxReplica"):
        jsonschema.validate(ray, schema)
    ray = json.loads(json.dumps(one("base", "RayCluster")))
    ray["spec"]["headGroupSpec"]["rayStartParams"]["num-cpus"] = 0
    with pytest.raises(jsonschema.ValidationError, match="is not of type 'string'"):
        jsonschema.validate(ray, schema)
    monitor = json.loads(json.dumps(one("base", "PodMonitor", "cardroom-ray-head")))
    monitor["spec"]["podMetricsEndpoints"] = []
    pod_schema = json.loads((K8S / "schemas" / "podmonitor_v1.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(monitor, pod_schema)
    statefulset = json.loads(json.dumps(one("base", "StatefulSet")))
    statefulset["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(statefulset, KUBERNETES_VERSION, strict=True)


@pytest.mark.parametrize("name", KUSTOMIZATIONS)
def test_every_pod_runs_unprivileged_with_resources(name: str) -> None:
    dockerfile = (REPO / "Dockerfile").read_text()
    assert "USER 1000:1000" in dockerfile
    for part, spec in pod_specs(name):
        pod = spec["securityContext"]
        assert pod["runAsNonRoot"] is True and pod["runAsUser"] == 1000, part
        assert pod["seccompProfile"] == {"type": "RuntimeDefault"}, part
        for container in spec["containers"]:
            security = container["securityContext"]
            assert security["readOnlyRootFilesystem"] is True, part
            assert security["allowPrivilegeEscalation"] is False, part
            assert security["capabilities"] == {"drop": ["ALL"]}, part
            assert {"requests", "limits"} <= set(container["resources"]), part
            mounts = {m["mountPath"] for m in container["volumeMounts"]}
            assert "/tmp" in mounts, part  # Python and Ray write there; the root is read-only


def _args(container: dict[str, Any]) -> dict[str, str]:
    """A container's `--flag value` and `--flag=value` arguments."""
    args, flags = container["args"], {}
    for index, arg in enumerate(args):
        if arg.startswith("--"):
            name, sep, value = arg.partition("=")
            next_is_value = index + 1 < len(args) and not args[index + 1].startswith("--")
            flags[name] = value if sep else (args[index + 1] if next_is_value else "")
    return flags


@pytest.mark.parametrize("name", KUSTOMIZATIONS)
def test_the_api_is_one_replica_probed_through_grpc_health(name: str) -> None:
    statefulset = one(name, "StatefulSet", "cardroom-api")
    assert statefulset["spec"]["replicas"] == 1  # one job store, one server
    claim = statefulset["spec"]["volumeClaimTemplates"][0]
    container = statefulset["spec"]["template"]["spec"]["containers"][0]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    flags = _args(container)
    assert flags["--listen"] == f"0.0.0.0:{ports['grpc']}"
    assert flags["--metrics-listen"] == f"0.0.0.0:{ports['metrics']}"
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"] == {"port": ports["grpc"]}, probe
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts[claim["metadata"]["name"]] == flags["--data-dir"]
    tokens = Path(flags["--tokens"])
    assert mounts["tokens"] == str(tokens.parent)
    secret_name = next(
        v["secret"]["secretName"]
        for v in statefulset["spec"]["template"]["spec"]["volumes"]
        if v["name"] == "tokens"
    )
    assert tokens.name in one(name, "Secret", secret_name)["data"]  # hashes only, from git
    service = one(name, "Service", "cardroom-api")
    selector = statefulset["spec"]["selector"]["matchLabels"]
    assert service["spec"]["selector"].items() <= selector.items()
    labels = statefulset["spec"]["template"]["metadata"]["labels"]
    assert selector.items() <= labels.items()


@pytest.mark.parametrize("name", KUSTOMIZATIONS)
def test_the_api_reaches_the_ray_head_and_the_policies_admit_only_that(name: str) -> None:
    ray = one(name, "RayCluster")
    head = ray["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]
    head_ports = {p["name"]: p["containerPort"] for p in head["ports"]}
    api = one(name, "StatefulSet")["spec"]["template"]
    flags = _args(api["spec"]["containers"][0])
    # KubeRay names the head's Service <cluster>-head-svc; the client port is Ray Client's.
    assert (
        flags["--ray-address"] == f"ray://{ray['metadata']['name']}-head-svc:{head_ports['client']}"
    )
    auth = ray["spec"]["authOptions"]
    assert auth["mode"] == "token"
    env = {e["name"]: e for e in api["spec"]["containers"][0]["env"]}
    assert env["RAY_AUTH_MODE"]["value"] == "token"
    assert env["RAY_AUTH_TOKEN"]["valueFrom"]["secretKeyRef"] == {
        "name": auth["secretName"],
        "key": "auth_token",
    }
    secrets = {d["metadata"]["name"] for d in rendered(name) if d["kind"] == "Secret"}
    assert secrets == {"cardroom-tokens"}  # Ray's token and the store's URL are made by hand
    api_policy = one(name, "NetworkPolicy", "cardroom-api")
    api_labels = api["metadata"]["labels"]
    assert api_policy["spec"]["podSelector"]["matchLabels"].items() <= api_labels.items()
    admitted = {port["port"] for rule in api_policy["spec"]["ingress"] for port in rule["ports"]}
    assert admitted == {
        int(flags["--listen"].rsplit(":", 1)[1]),
        int(flags["--metrics-listen"].rsplit(":", 1)[1]),
    }
    ray_policy = one(name, "NetworkPolicy", "cardroom-ray")
    from_api = [
        rule
        for rule in ray_policy["spec"]["ingress"]
        if any(
            peer.get("podSelector", {}).get("matchLabels", {}).items() <= api_labels.items()
            and "namespaceSelector" not in peer
            for peer in rule["from"]
        )
    ]
    assert [p["port"] for rule in from_api for p in rule["ports"]] == [head_ports["client"]]
    for template in (
        ray["spec"]["headGroupSpec"]["template"],
        *(g["template"] for g in ray["spec"]["workerGroupSpecs"]),
    ):
        selected = ray_policy["spec"]["podSelector"]["matchLabels"]
        assert selected.items() <= template["metadata"]["labels"].items()


def test_ray_version_of_the_cluster_is_the_images() -> None:
    dockerfile = (REPO / "Dockerfile").read_text()
    pinned = re.search(r"^ARG RAY_VERSION=(\S+)$", dockerfile, re.M)
    assert pinned is not None
    for name in KUSTOMIZATIONS:
        assert one(name, "RayCluster")["spec"]["rayVersion"] == pinned[1]


@pytest.mark.parametrize("name", KUSTOMIZATIONS[1:])  # the base sets no namespace
def test_rays_own_kuberay_autoscaler_reads_the_cluster(name: str) -> None:
    """The autoscaler that KubeRay runs beside the head derives its node types from the
    RayCluster: the worker group's bounds and CPUs, a head that takes no shards."""
    from ray.autoscaler._private.kuberay.autoscaling_config import (
        _derive_autoscaling_config_from_ray_cr,
    )

    ray = one(name, "RayCluster")
    config = _derive_autoscaling_config_from_ray_cr(json.loads(json.dumps(ray)))
    group = ray["spec"]["workerGroupSpecs"][0]
    worker = config["available_node_types"][group["groupName"]]
    assert (worker["min_workers"], worker["max_workers"]) == (
        group["minReplicas"],
        group["maxReplicas"],
    )
    cpus = group["template"]["spec"]["containers"][0]["resources"]["limits"]["cpu"]
    assert worker["resources"]["CPU"] == int(cpus)
    assert config["available_node_types"]["headgroup"]["resources"]["CPU"] == 0
    assert (
        config["idle_timeout_minutes"] * 60
        == ray["spec"]["autoscalerOptions"]["idleTimeoutSeconds"]
    )


def test_the_overlays_size_the_cluster_and_the_large_one_keeps_jobs_in_postgresql() -> None:
    small = one("overlays/small", "RayCluster")["spec"]["workerGroupSpecs"][0]
    large = one("overlays/large", "RayCluster")["spec"]["workerGroupSpecs"][0]
    assert small["maxReplicas"] < large["maxReplicas"] and large["minReplicas"] >= 1
    container = one("overlays/large", "StatefulSet")["spec"]["template"]["spec"]["containers"][0]
    assert _args(container)["--store"] == "$(CARDROOM_STORE)"  # expanded by the kubelet
    env = {e["name"]: e for e in container["env"]}
    reference = env["CARDROOM_STORE"]["valueFrom"]["secretKeyRef"]
    assert reference == {"name": "cardroom-postgres", "key": "url"}
    small_api = one("overlays/small", "StatefulSet")["spec"]["template"]["spec"]["containers"][0]
    assert "--store" not in _args(small_api)
    for name in ("overlays/small", "overlays/large"):
        assert all(d["metadata"].get("namespace") in (None, "cardroom") for d in rendered(name))
        image = one(name, "StatefulSet")["spec"]["template"]["spec"]["containers"][0]["image"]
        assert image.endswith("/cardroom:0.1.0")


def _exported_metrics() -> set[str]:
    registry = CollectorRegistry()
    ServiceMetrics(registry, list)
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum")}
    names = {"up"}
    for family in registry.collect():
        names |= {family.name + s for s in suffixes.get(family.type, ("",))}
    return names


def _metric_names(expr: str) -> set[str]:
    without_strings = re.sub(r'"[^"]*"', "", expr)
    without_ranges = re.sub(r"\[[^\]]*\]", "", without_strings)
    words = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", without_ranges))
    return {w for w in words if w.startswith(("cardroom_", "up"))} - {"cardroom:"}


def test_the_rules_and_the_dashboard_use_only_metrics_the_service_exports() -> None:
    exported = _exported_metrics()
    rule = one("base", "PrometheusRule")
    exprs = [r["expr"] for g in rule["spec"]["groups"] for r in g["rules"]]
    dashboard = json.loads((K8S / "base" / "monitoring" / "cardroom-dashboard.json").read_text())
    exprs += [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = set().union(*(_metric_names(e) for e in exprs))
    assert used and used <= exported, used - exported
    configmap = one("base", "ConfigMap", "cardroom-grafana-dashboard")
    assert json.loads(configmap["data"]["cardroom-dashboard.json"]) == dashboard


def test_promtool_checks_and_tests_the_rules(tmp_path: Path) -> None:
    promtool = require_tool("promtool", "CARDROOM_PROMTOOL")
    rule = one("base", "PrometheusRule")
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump({"groups": rule["spec"]["groups"]}))
    tests = (K8S / "base" / "monitoring" / "rules.test.yaml").read_text()
    (tmp_path / "rules.test.yaml").write_text(tests)
    for command in ("check", "test"):
        target = "rules.yaml" if command == "check" else "rules.test.yaml"
        done = subprocess.run(
            [promtool, command, "rules", target],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "SUCCESS" in done.stdout
