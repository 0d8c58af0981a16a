"""The Kubernetes manifests, checked offline (no cluster can run here): each kustomization
renders, alone and with the optional components; the core kinds pass kubernetes-validate
(strict, Kubernetes 1.32); the KubeRay, prometheus-operator and cert-manager kinds pass the
JSON schemas in k8s/schemas, the pod templates inside a RayCluster pass as core
PodTemplates, and Ray's own KubeRay autoscaler reads the RayCluster; the API's arguments
are flags `cardroom serve` accepts, with TLS, a plaintext health port for the probes and no
secret among them; the Prometheus rules pass `promtool check rules` and their unit tests;
and the parts that must agree — ports, names, Secrets, the metrics the rules and dashboard
use (scraped from a real server) — do.  Pod security: tests/test_k8s_security.py; the
image: tests/test_image.py."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import urllib.request
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml
from markdown.extensions.toc import slugify
from prometheus_client.parser import text_string_to_metric_families

from tests.harness import REPO, require_tool, running_server

K8S = REPO / "k8s"
KUSTOMIZATIONS = ("base", "overlays/small", "overlays/large")
OVERLAYS = KUSTOMIZATIONS[1:]
# An overlay with every optional component, as an operator would add them.
WITH_COMPONENTS = "overlays/small+components"
COMPONENTS = ("components/tls-cert-manager", "components/ray-gcs-ft")
KUBERNETES_VERSION = "1.32.0"  # the machine's kubectl
SCHEMAS = {
    ("ray.io/v1", "RayCluster"): "raycluster_v1.json",
    ("monitoring.coreos.com/v1", "ServiceMonitor"): "servicemonitor_v1.json",
    ("monitoring.coreos.com/v1", "PodMonitor"): "podmonitor_v1.json",
    ("monitoring.coreos.com/v1", "PrometheusRule"): "prometheusrule_v1.json",
    ("cert-manager.io/v1", "Certificate"): "certificate_v1.json",
    ("cert-manager.io/v1", "Issuer"): "issuer_v1.json",
}
DIGEST = re.compile(r"^[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9._-]+)+@sha256:[0-9a-f]{64}$")
OPERATIONS = REPO / "docs" / "operations.md"


def _write_components_kustomization(root: Path) -> None:
    """A kustomization in ``root`` around the small overlay and every component, as an
    operator adds them (kustomize takes only relative paths)."""
    relative = [os.path.relpath(K8S / part, root) for part in ("overlays/small", *COMPONENTS)]
    kustomization = {
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "namespace": "cardroom",
        "resources": relative[:1],
        "components": relative[1:],
    }
    (root / "kustomization.yaml").write_text(yaml.safe_dump(kustomization))


@cache
def rendered(name: str) -> tuple[dict[str, Any], ...]:
    kubectl = require_tool("kubectl", "CARDROOM_KUBECTL")
    with tempfile.TemporaryDirectory(prefix="cardroom-kustomize-") as scratch:
        root = K8S / name
        if name == WITH_COMPONENTS:
            root = Path(scratch)
            _write_components_kustomization(root)
        done = subprocess.run(
            [kubectl, "kustomize", str(root)],
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


def containers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return [*spec.get("initContainers", []), *spec["containers"]]


def api_container(name: str) -> dict[str, Any]:
    container: dict[str, Any] = one(name, "StatefulSet")["spec"]["template"]["spec"]["containers"][
        0
    ]
    return container


def _args(container: dict[str, Any]) -> dict[str, str]:
    """A container's `--flag value` and `--flag=value` arguments."""
    args, flags = container["args"], {}
    for index, arg in enumerate(args):
        if arg.startswith("--"):
            name, sep, value = arg.partition("=")
            next_is_value = index + 1 < len(args) and not args[index + 1].startswith("--")
            flags[name] = value if sep else (args[index + 1] if next_is_value else "")
    return flags


def _port(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


@pytest.mark.parametrize("name", (*KUSTOMIZATIONS, WITH_COMPONENTS))
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
    endpoints, a Certificate without its Secret, GCS fault tolerance without a Redis: the
    validation above can fail."""
    ray = json.loads(json.dumps(one("base", "RayCluster")))
    schema = json.loads((K8S / "schemas" / "raycluster_v1.json").read_text())
    ray["spec"]["workerGroupSpecs"][0]["maxReplica"] = 3
    with pytest.raises(jsonschema.ValidationError, match="maxReplica"):
        jsonschema.validate(ray, schema)
    ray = json.loads(json.dumps(one("base", "RayCluster")))
    ray["spec"]["headGroupSpec"]["rayStartParams"]["num-cpus"] = 0
    with pytest.raises(jsonschema.ValidationError, match="is not of type 'string'"):
        jsonschema.validate(ray, schema)
    ray = json.loads(json.dumps(one(WITH_COMPONENTS, "RayCluster")))
    del ray["spec"]["gcsFaultToleranceOptions"]["redisAddress"]
    with pytest.raises(jsonschema.ValidationError, match="redisAddress"):
        jsonschema.validate(ray, schema)
    monitor = json.loads(json.dumps(one("base", "PodMonitor", "cardroom-ray-head")))
    monitor["spec"]["podMetricsEndpoints"] = []
    pod_schema = json.loads((K8S / "schemas" / "podmonitor_v1.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(monitor, pod_schema)
    certificate = json.loads(json.dumps(one(WITH_COMPONENTS, "Certificate", "cardroom-api-tls")))
    cert_schema = json.loads((K8S / "schemas" / "certificate_v1.json").read_text())
    certificate["spec"]["privateKey"]["algorithm"] = "DSA"
    with pytest.raises(jsonschema.ValidationError, match="DSA"):
        jsonschema.validate(certificate, cert_schema)
    del certificate["spec"]["secretName"]
    with pytest.raises(jsonschema.ValidationError, match="secretName"):
        jsonschema.validate(certificate, cert_schema)
    issuer = json.loads(json.dumps(one(WITH_COMPONENTS, "Issuer", "cardroom-ca")))
    issuer["spec"]["selfSigned"] = {}  # an Issuer is of one type
    issuer_schema = json.loads((K8S / "schemas" / "issuer_v1.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(issuer, issuer_schema)
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
        for container in containers(spec):
            security = container["securityContext"]
            assert security["readOnlyRootFilesystem"] is True, part
            assert security["allowPrivilegeEscalation"] is False, part
            assert security["capabilities"] == {"drop": ["ALL"]}, part
            assert {"requests", "limits"} <= set(container["resources"]), part
        for container in spec["containers"]:
            mounts = {m["mountPath"] for m in container["volumeMounts"]}
            assert "/tmp" in mounts, part  # Python and Ray write there; the root is read-only


@pytest.mark.parametrize("name", KUSTOMIZATIONS)
def test_the_pods_that_run_kernels_get_the_images_numba_cache(name: str) -> None:
    """numba uses a cache only where it can write: the API and the workers copy the image's
    cache (NUMBA_CACHE_DIR, built by service.warm) into a volume mounted there."""
    dockerfile = (REPO / "Dockerfile").read_text()
    cache_dir = re.findall(r"NUMBA_CACHE_DIR=(\S+)", dockerfile)
    assert len(set(cache_dir)) == 1, cache_dir  # the build stage's and the runtime's
    assert "python -m service.warm" in dockerfile
    for part, spec in pod_specs(name):
        if part == "ray-head":  # it takes no shards (num-cpus "0")
            continue
        (init,) = [c for c in spec["initContainers"] if c["name"] == "numba-cache"]
        volume = {v["name"]: v for v in spec["volumes"]}["numba-cache"]
        assert "emptyDir" in volume, part
        (target,) = [m["mountPath"] for m in init["volumeMounts"] if m["name"] == "numba-cache"]
        assert init["command"] == ["cp", "-R", f"{cache_dir[0]}/.", f"{target}/"], part
        assert init["image"] == spec["containers"][0]["image"], part
        mounts = {m["name"]: m["mountPath"] for m in spec["containers"][0]["volumeMounts"]}
        assert mounts["numba-cache"] == cache_dir[0], part


def test_the_api_flags_are_ones_cardroom_serve_accepts() -> None:
    """The StatefulSet's arguments parse with the command's own parser: a misspelt or
    missing flag fails here, not in a crash-looping pod."""
    from service.cli import build_parser

    for name in KUSTOMIZATIONS:
        args = api_container(name)["args"]
        assert args[0] == "serve"
        parsed = vars(build_parser().parse_args(args))
        flags = _args(api_container(name))
        assert parsed["command"] == "serve"
        assert str(parsed["server_cert"]) == flags["--tls-cert"], name
        assert str(parsed["server_key"]) == flags["--tls-key"], name
        assert parsed["health_listen"] == flags["--health-listen"], name
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--health-listn", "0.0.0.0:50052"])


@pytest.mark.parametrize("name", KUSTOMIZATIONS)
def test_the_api_serves_tls_and_is_probed_on_a_plaintext_health_port(name: str) -> None:
    statefulset = one(name, "StatefulSet", "cardroom-api")
    assert statefulset["spec"]["replicas"] == 1  # one job store, one server
    claim = statefulset["spec"]["volumeClaimTemplates"][0]
    spec = statefulset["spec"]["template"]["spec"]
    container = spec["containers"][0]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    flags = _args(container)
    assert flags["--listen"] == f"0.0.0.0:{ports['grpc']}"
    assert flags["--health-listen"] == f"0.0.0.0:{ports['health']}"
    assert flags["--metrics-listen"] == f"0.0.0.0:{ports['metrics']}"
    assert len({ports["grpc"], ports["health"], ports["metrics"]}) == 3
    # The kubelet's gRPC probes speak plaintext only: the health port, never the TLS one.
    for probe in ("startupProbe", "readinessProbe"):
        assert container[probe]["grpc"] == {"port": ports["health"]}, probe
    assert container["livenessProbe"]["grpc"] == {"port": ports["health"], "service": "liveness"}
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in spec["volumes"]}
    assert mounts[claim["metadata"]["name"]] == flags["--data-dir"]
    tokens = Path(flags["--tokens"])
    assert mounts["tokens"] == str(tokens.parent)
    assert tokens.name in one(name, "Secret", volumes["tokens"]["secret"]["secretName"])["data"]
    # TLS from the Secret cardroom-api-tls (kubernetes.io/tls: tls.crt, tls.key).
    assert volumes["tls"]["secret"]["secretName"] == "cardroom-api-tls"
    assert flags["--tls-cert"] == f"{mounts['tls']}/tls.crt"
    assert flags["--tls-key"] == f"{mounts['tls']}/tls.key"
    service = one(name, "Service", "cardroom-api")
    selector = statefulset["spec"]["selector"]["matchLabels"]
    assert service["spec"]["selector"].items() <= selector.items()
    assert ports["health"] not in {p.get("targetPort") for p in service["spec"]["ports"]}
    assert "health" not in {p.get("targetPort") for p in service["spec"]["ports"]}
    labels = statefulset["spec"]["template"]["metadata"]["labels"]
    assert selector.items() <= labels.items()


def test_cert_manager_makes_the_secret_the_api_mounts() -> None:
    certificate = one(WITH_COMPONENTS, "Certificate", "cardroom-api-tls")["spec"]
    spec = one(WITH_COMPONENTS, "StatefulSet")["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in spec["volumes"]}
    assert certificate["secretName"] == volumes["tls"]["secret"]["secretName"]
    assert "server auth" in certificate["usages"]
    # The names clients use for the API's Service, in the namespace the overlay sets.
    service = one(WITH_COMPONENTS, "Service", "cardroom-api")["metadata"]
    fqdn = f"{service['name']}.{service['namespace']}.svc"
    assert {service["name"], fqdn, f"{fqdn}.cluster.local"} <= set(certificate["dnsNames"])
    issuers = {i["metadata"]["name"]: i for i in rendered(WITH_COMPONENTS) if i["kind"] == "Issuer"}
    ca_issuer = issuers[certificate["issuerRef"]["name"]]["spec"]["ca"]
    authority = one(WITH_COMPONENTS, "Certificate", "cardroom-ca")["spec"]
    assert authority["isCA"] is True and authority["secretName"] == ca_issuer["secretName"]
    assert "selfSigned" in issuers[authority["issuerRef"]["name"]]["spec"]
    for document in rendered(WITH_COMPONENTS):
        assert document["metadata"].get("namespace") in (None, "cardroom"), document["kind"]


def test_no_secret_is_ever_a_command_line_argument() -> None:
    """argv is readable in /proc, in ps and in Ray's job table: a secret reaches a process
    through its environment or a file.  No argument expands a variable, and none names a
    store URL or a password."""
    for name in (*KUSTOMIZATIONS, WITH_COMPONENTS):
        for part, spec in pod_specs(name):
            for container in containers(spec):
                secret_env = {e["name"] for e in container.get("env", []) if "valueFrom" in e} | {
                    "CARDROOM_STORE",
                    "RAY_AUTH_TOKEN",
                }
                for arg in (*container.get("command", []), *container.get("args", [])):
                    assert "$(" not in arg, (name, part, arg)  # the kubelet would expand it
                    assert not any(v in arg for v in secret_env), (name, part, arg)
                    assert not re.search(r"postgres(ql)?://|password|://[^/]*:[^/]*@", arg), arg
        ray = one(name, "RayCluster")["spec"]
        for group in (ray["headGroupSpec"], *ray["workerGroupSpecs"]):  # ray start's argv
            for key, value in group["rayStartParams"].items():
                assert not re.search(r"password|token", key + value, re.I), (key, value)


def test_the_large_overlay_keeps_jobs_in_postgresql_verified_by_its_ca() -> None:
    small = one("overlays/small", "RayCluster")["spec"]["workerGroupSpecs"][0]
    large = one("overlays/large", "RayCluster")["spec"]["workerGroupSpecs"][0]
    assert small["maxReplicas"] < large["maxReplicas"] and large["minReplicas"] >= 1
    container = api_container("overlays/large")
    assert "--store" not in _args(container)  # the server reads $CARDROOM_STORE itself
    env = {e["name"]: e for e in container["env"]}
    reference = env["CARDROOM_STORE"]["valueFrom"]["secretKeyRef"]
    assert reference == {"name": "cardroom-postgres", "key": "url"}
    # libpq reads the root certificate for sslmode=verify-full from PGSSLROOTCERT.
    root_cert = Path(env["PGSSLROOTCERT"]["value"])
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    volumes = {
        v["name"]: v
        for v in one("overlays/large", "StatefulSet")["spec"]["template"]["spec"]["volumes"]
    }
    name = next(n for n, path in mounts.items() if path == str(root_cert.parent))
    secret = volumes[name]["secret"]
    assert secret["secretName"] == "cardroom-postgres-ca"
    assert secret["items"] == [{"key": "root.crt", "path": root_cert.name}]
    small_api = api_container("overlays/small")
    assert "--store" not in _args(small_api)
    assert "CARDROOM_STORE" not in {e["name"] for e in small_api["env"]}
    assert "PGSSLROOTCERT" not in {e["name"] for e in small_api["env"]}


@pytest.mark.parametrize("name", KUSTOMIZATIONS)
def test_every_image_is_an_immutable_reference(name: str) -> None:
    """By digest, never by a tag that can move; IfNotPresent is right only for a digest."""
    images = set()
    for part, spec in pod_specs(name):
        for container in containers(spec):
            image = container["image"]
            images.add(image)
            assert "@sha256:" in image, (part, image)
            assert container.get("imagePullPolicy", "IfNotPresent") == "IfNotPresent"
    assert len(images) == 1  # one image for the API, the head, the workers and the copies
    if name != "base":
        assert DIGEST.match(images.pop()), name
        assert all(d["metadata"].get("namespace") in (None, "cardroom") for d in rendered(name))


@pytest.mark.parametrize("name", KUSTOMIZATIONS)
def test_the_api_reaches_the_ray_head_and_the_policies_admit_only_that(name: str) -> None:
    ray = one(name, "RayCluster")
    head = ray["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]
    head_ports = {p["name"]: p["containerPort"] for p in head["ports"]}
    api = one(name, "StatefulSet")["spec"]["template"]
    container = api["spec"]["containers"][0]
    flags = _args(container)
    # KubeRay names the head's Service <cluster>-head-svc; the client port is Ray Client's.
    assert (
        flags["--ray-address"] == f"ray://{ray['metadata']['name']}-head-svc:{head_ports['client']}"
    )
    auth = ray["spec"]["authOptions"]
    assert auth["mode"] == "token"
    env = {e["name"]: e for e in container["env"]}
    assert env["RAY_AUTH_MODE"]["value"] == "token"
    assert env["RAY_AUTH_TOKEN"]["valueFrom"]["secretKeyRef"] == {
        "name": auth["secretName"],
        "key": "auth_token",
    }
    secrets = {d["metadata"]["name"] for d in rendered(name) if d["kind"] == "Secret"}
    assert secrets == {"cardroom-tokens"}  # the real secrets are made by hand
    api_policy = one(name, "NetworkPolicy", "cardroom-api")
    api_labels = api["metadata"]["labels"]
    assert api_policy["spec"]["podSelector"]["matchLabels"].items() <= api_labels.items()
    admitted = {port["port"] for rule in api_policy["spec"]["ingress"] for port in rule["ports"]}
    # gRPC and metrics; never the plaintext health port (the kubelet's probes need no rule).
    assert admitted == {_port(flags["--listen"]), _port(flags["--metrics-listen"])}
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


def test_api_clients_come_from_this_namespace_or_a_namespace_labelled_for_them() -> None:
    """A pod's own label admits it only in the API's namespace or in a namespace labelled
    cardroom.dev/clients: "true": no peer selects every namespace for the gRPC port."""
    policy = one("overlays/small", "NetworkPolicy", "cardroom-api")
    grpc_port = _port(_args(api_container("overlays/small"))["--listen"])
    (rule,) = [r for r in policy["spec"]["ingress"] if grpc_port in {p["port"] for p in r["ports"]}]
    client = {"cardroom.dev/client": "true"}
    assert {"podSelector": {"matchLabels": client}} in rule["from"]
    assert {
        "namespaceSelector": {"matchLabels": {"cardroom.dev/clients": "true"}},
        "podSelector": {"matchLabels": client},
    } in rule["from"]
    assert len(rule["from"]) == 2


def test_ray_version_of_the_cluster_is_the_images() -> None:
    lock = (REPO / "requirements" / "image.lock").read_text()
    pinned = re.search(r"^ray==(\S+)", lock, re.M)
    assert pinned is not None
    for name in KUSTOMIZATIONS:
        assert one(name, "RayCluster")["spec"]["rayVersion"] == pinned[1]


@pytest.mark.parametrize("name", OVERLAYS)  # the base sets no namespace
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


def test_gcs_fault_tolerance_is_an_option_with_its_password_from_a_secret() -> None:
    assert "gcsFaultToleranceOptions" not in one("overlays/large", "RayCluster")["spec"]
    options = one(WITH_COMPONENTS, "RayCluster")["spec"]["gcsFaultToleranceOptions"]
    assert options["redisPassword"] == {
        "valueFrom": {"secretKeyRef": {"name": "cardroom-ray-redis", "key": "password"}}
    }


# -- monitoring ----------------------------------------------------------------------------

# Series Prometheus gets from elsewhere than the API: scrape health and the kubelet's.
EXTERNAL_METRICS = {
    "up",
    "kubelet_volume_stats_available_bytes",
    "kubelet_volume_stats_capacity_bytes",
}


def _rule_exprs() -> list[str]:
    rule = one("base", "PrometheusRule")
    return [r["expr"] for g in rule["spec"]["groups"] for r in g["rules"]]


def _dashboard() -> dict[str, Any]:
    dashboard: dict[str, Any] = json.loads(
        (K8S / "base" / "monitoring" / "cardroom-dashboard.json").read_text()
    )
    return dashboard


def _metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (not its functions, labels or keywords)."""
    text = re.sub(r'"[^"]*"', "", expr)
    text = re.sub(r"\{[^}]*\}", "", text)
    text = re.sub(r"\[[^\]]*\]", "", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)
    words = re.findall(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?", text)
    keywords = {"and", "or", "unless", "bool", "offset"}
    return {
        word
        for word, call in words
        if not call and word not in keywords and not word.startswith("cardroom:")
    }


def _exported_families(text: str) -> set[str]:
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum")}
    names = set()
    for family in text_string_to_metric_families(text):
        names |= {family.name + s for s in suffixes.get(family.type, ("",))}
    return names


def test_the_metric_name_reader_sees_each_metric_of_an_expression() -> None:
    expr = (
        "histogram_quantile(0.9, sum by (namespace, le) (rate(cardroom_queue_wait_seconds_bucket"
        '{namespace="a"}[10m]))) > 300 and on() (sum(rate(x_total[5m])) or on() vector(0)) == 0'
    )
    assert _metric_names(expr) == {"cardroom_queue_wait_seconds_bucket", "x_total"}
    assert _metric_names('process_resident_memory_bytes{job="a"}') == {
        "process_resident_memory_bytes"
    }


@pytest.mark.slow
def test_the_rules_and_the_dashboard_use_only_metrics_a_real_server_exports(
    tmp_path: Path,
) -> None:
    """Scraped from `cardroom serve` itself: every family it exports, with or without a
    sample yet (a labelled family with no child still has its TYPE line)."""
    with (
        running_server(tmp_path / "data", workers=1) as server,
        urllib.request.urlopen(f"http://{server.metrics}/metrics", timeout=30) as reply,
    ):
        exported = _exported_families(reply.read().decode())
    dashboard = _dashboard()
    exprs = _rule_exprs() + [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = set().union(*(_metric_names(e) for e in exprs))
    assert {
        "cardroom_store_up",
        "cardroom_ray_connected",
        "cardroom_tls_certificate_expiry_timestamp_seconds",
        "cardroom_queue_wait_seconds_bucket",
        "cardroom_queue_depth_shards",
        "cardroom_grpc_request_duration_seconds_bucket",
        "process_resident_memory_bytes",
    } <= used
    assert used - EXTERNAL_METRICS <= exported, (used - EXTERNAL_METRICS) - exported
    configmap = one("base", "ConfigMap", "cardroom-grafana-dashboard")
    assert json.loads(configmap["data"]["cardroom-dashboard.json"]) == dashboard


def _operations_anchors() -> set[str]:
    """The anchors of docs/operations.md's headings as the documentation site makes them
    (Python-Markdown's toc: lower case, punctuation dropped, spaces '-'), which are GitHub's
    too for these headings."""
    anchors, fenced = set(), False
    for line in OPERATIONS.read_text().splitlines():
        fenced ^= line.startswith("```")
        heading = None if fenced else re.match(r"^#{1,6} (.+)$", line)
        if heading:
            anchors.add(slugify(heading[1].strip(), "-"))
    return anchors


def test_every_alert_has_a_runbook_in_the_operations_page() -> None:
    rule = one("base", "PrometheusRule")
    alerts = [r for g in rule["spec"]["groups"] for r in g["rules"] if "alert" in r]
    expected = {
        "CardroomAPIDown",
        "CardroomNoProgress",
        "CardroomCallsFailing",
        "CardroomStoreDown",
        "CardroomRayDisconnected",
        "CardroomCertificateExpiring",
        "CardroomQueueWaitHigh",
        "CardroomVolumeFilling",
    }
    assert expected <= {a["alert"] for a in alerts}
    anchors = _operations_anchors()
    assert "metrics-and-alerts" in anchors  # the page's own headings were read
    for alert in alerts:
        url = alert["annotations"]["runbook_url"]
        page, _, anchor = url.partition("#")
        assert page.endswith("/docs/operations.md") and anchor == alert["alert"].lower(), url
        assert anchor in anchors, f"docs/operations.md has no heading for {alert['alert']}"
        assert alert["labels"]["severity"] in {"critical", "warning", "info"}


def test_the_promtool_tests_expect_the_same_runbooks() -> None:
    """rules.test.yaml's expected annotations name the same pages as the rules."""
    tests = yaml.safe_load((REPO / "k8s/base/monitoring/rules.test.yaml").read_text())
    urls = [
        alert["exp_annotations"]["runbook_url"]
        for case in tests["tests"]
        for check in case.get("alert_rule_test", [])
        for alert in check.get("exp_alerts", [])
    ]
    assert urls, "rules.test.yaml expects no alert"
    anchors = _operations_anchors()
    for url in urls:
        page, _, anchor = url.partition("#")
        assert page == "https://cardroom.invalid/docs/operations.md" and anchor in anchors, url


def test_no_progress_reads_every_kinds_counter_and_cannot_be_silenced_by_its_absence() -> None:
    rule = one("base", "PrometheusRule")
    (expr,) = [
        r["expr"]
        for g in rule["spec"]["groups"]
        for r in g["rules"]
        if r.get("alert") == "CardroomNoProgress"
    ]
    assert "or on() vector(0)" in expr
    (calls,) = [
        r["expr"]
        for g in rule["spec"]["groups"]
        for r in g["rules"]
        if r.get("alert") == "CardroomCallsFailing"
    ]
    assert "DEADLINE_EXCEEDED" in calls


def _promtool(
    tmp_path: Path, spec_groups: list[Any], command: str
) -> subprocess.CompletedProcess[str]:
    promtool = require_tool("promtool", "CARDROOM_PROMTOOL")
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump({"groups": spec_groups}))
    tests = (K8S / "base" / "monitoring" / "rules.test.yaml").read_text()
    (tmp_path / "rules.test.yaml").write_text(tests)
    target = "rules.yaml" if command == "check" else "rules.test.yaml"
    return subprocess.run(
        [promtool, command, "rules", target],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_promtool_checks_and_tests_the_rules(tmp_path: Path) -> None:
    groups = one("base", "PrometheusRule")["spec"]["groups"]
    for command in ("check", "test"):
        done = _promtool(tmp_path, groups, command)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "SUCCESS" in done.stdout


@pytest.mark.parametrize(
    ("alert", "before", "after"),
    [
        # The rule as it was: an absent trials series made the whole expression empty.
        ("CardroomNoProgress", " or on() vector(0))", ")"),
        ("CardroomCallsFailing", "|DEADLINE_EXCEEDED", ""),
        ("CardroomStoreDown", "cardroom_store_up == 0", "cardroom_store_up == 2"),
        ("CardroomVolumeFilling", "< 0.10", "< 0.01"),
    ],
)
def test_the_rule_tests_fail_when_a_rule_is_wrong(
    tmp_path: Path, alert: str, before: str, after: str
) -> None:
    """The unit tests can fail: each rule, made wrong, fails them naming the alert."""
    groups = json.loads(json.dumps(one("base", "PrometheusRule")["spec"]["groups"]))
    (rule,) = [r for g in groups for r in g["rules"] if r.get("alert") == alert]
    assert before in rule["expr"]
    rule["expr"] = rule["expr"].replace(before, after)
    done = _promtool(tmp_path, groups, "test")
    assert done.returncode != 0, done.stdout
    assert f"alertname: {alert}" in done.stdout + done.stderr
