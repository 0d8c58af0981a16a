# The cardroom image: the API server (`cardroom serve`) and the Ray head and workers of the
# KubeRay cluster all run it, so that every Ray process has the same Ray, Python and code.
# Build from the repository's root:   docker build -t cardroom:0.1.0 .
# RAY_VERSION must equal the RayCluster's rayVersion (k8s/base/raycluster.yaml); a test
# checks the two, and that the user below is the one the manifests run as.
ARG PYTHON_VERSION=3.11
FROM python:${PYTHON_VERSION}-slim-bookworm AS build
ARG RAY_VERSION=2.60.0
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/cardroom/src
COPY pyproject.toml setup.py README.md ./
COPY simulations simulations
COPY service service
COPY workers workers
# As `make compile` does: an editable install, then the engine's hot modules compiled with
# mypyc beside their sources (newer than them, so the engine takes them).
# ray[default]: Ray's metrics on :8080 (the PodMonitors) and the KubeRay autoscaler need it.
RUN python -m venv /opt/cardroom/venv \
    && /opt/cardroom/venv/bin/pip install --no-cache-dir --upgrade pip \
    && /opt/cardroom/venv/bin/pip install --no-cache-dir "ray[default]==${RAY_VERSION}" \
        -e ".[compile,postgres]" \
    && CARDROOM_COMPILE=1 /opt/cardroom/venv/bin/python setup.py --quiet build_ext --inplace --force \
    && rm -rf build

FROM python:${PYTHON_VERSION}-slim-bookworm
COPY --from=build /opt/cardroom /opt/cardroom
# Not root: uid and gid 1000, as the manifests' securityContext says.  The root filesystem
# is mounted read-only there; /tmp (Ray's sessions) and /data (the job store) are volumes.
RUN groupadd --gid 1000 cardroom && useradd --uid 1000 --gid 1000 --no-create-home cardroom
ENV PATH=/opt/cardroom/venv/bin:$PATH \
    HOME=/tmp \
    PYTHONDONTWRITEBYTECODE=1 \
    RAY_USAGE_STATS_ENABLED=0
USER 1000:1000
WORKDIR /tmp
EXPOSE 50051 9464
ENTRYPOINT ["cardroom"]
CMD ["serve", "--listen", "0.0.0.0:50051", "--metrics-listen", "0.0.0.0:9464", "--data-dir", "/data", "--tokens", "/etc/cardroom/tokens/tokens.txt"]
