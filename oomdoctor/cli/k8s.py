"""`oomdoctor k8s`: find the containers that failed in a namespace (or the cluster), diagnose
each from its previous log and its spec, and write the patch for its controller."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from oomdoctor.report import OutputFormat
from oomdoctor.status import EXIT_CODES_HELP, ExitStatus


def register(app: typer.Typer) -> None:
    app.command(
        name="k8s",
        help="Diagnose the pods of a Kubernetes namespace whose containers were OOMKilled, exited with an error or "
        "loop in CrashLoopBackOff: previous log + spec + node GPU labels + events -> culprit and a `kubectl patch` "
        "for the owning Deployment/StatefulSet. Uses kubeconfig (or the in-cluster service account) as kubectl "
        "does; needs get/list on pods, pods/log, events and nodes.\n\n" + EXIT_CODES_HELP,
    )(k8s)


def k8s(
    namespace: Optional[str] = typer.Option(None, "--namespace", "-n", help="Namespace (default: the context's, else 'default')."),
    all_namespaces: bool = typer.Option(False, "--all-namespaces", "-A", help="Every namespace."),
    selector: Optional[str] = typer.Option(None, "--selector", "-l", help="Label selector, e.g. app=vllm."),
    pod: Optional[str] = typer.Option(None, "--pod", help="One pod by name."),
    since: Optional[str] = typer.Option(None, "--since", help="Only failures that ended within this long (30m, 1h, 2d)."),
    context: Optional[str] = typer.Option(None, "--context", help="Kubeconfig context (default: the current one)."),
    kubeconfig: Optional[str] = typer.Option(None, "--kubeconfig", help="Kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster)."),
    fmt: OutputFormat = typer.Option(OutputFormat.TEXT, "--format", "-f", help="Output format."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write one report per pod under DIR/<namespace>/."),
    tail_lines: int = typer.Option(5000, "--tail-lines", min=1, help="Lines read from the end of each previous log."),
    limit_bytes: int = typer.Option(8 << 20, "--limit-bytes", min=1024, help="Bytes read at most from each log."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, max=64, help="Log/event reads in flight at once."),
    request_timeout: float = typer.Option(30.0, "--request-timeout", min=1, help="Seconds per API request."),
    framework: Optional[str] = typer.Option(None, "--framework", help="Override framework detection for every pod."),
    rules: List[Path] = typer.Option([], "--rules", help="Extra rule directory (repeatable)."),
    no_redact: bool = typer.Option(False, "--no-redact", help="Do not mask tokens, keys and passwords in the output."),
    redact_hosts: bool = typer.Option(False, "--redact-hosts", help="Also mask IPs, hostnames and home-directory user names."),
) -> None:
    import dataclasses

    from oomdoctor.errors import UsageError
    from oomdoctor.k8s.api import connect
    from oomdoctor.k8s.model import ScanOptions
    from oomdoctor.k8s.render import pod_filename, redact_scan, render, render_pod
    from oomdoctor.k8s.scan import scan_cluster
    from oomdoctor.k8s.select import parse_duration

    if all_namespaces and (namespace or pod):
        raise UsageError("--all-namespaces cannot be combined with --namespace or --pod")
    since_s = parse_duration(since) if since else None
    api = connect(kubeconfig, context, timeout_s=request_timeout, pool_size=concurrency + 2)
    ns = None if all_namespaces else (namespace or api.cluster.namespace or "default")
    api.cluster = dataclasses.replace(api.cluster, namespace=ns)
    opts = ScanOptions(namespace=ns, all_namespaces=all_namespaces, selector=selector, pod=pod, since_s=since_s,
                       tail_lines=tail_lines, limit_bytes=limit_bytes, concurrency=concurrency, framework=framework,
                       rule_dirs=tuple(str(r) for r in rules))
    scan = scan_cluster(api, opts)
    if not no_redact:
        from oomdoctor.redact import Redactor

        scan = redact_scan(scan, Redactor(hosts=redact_hosts))
    typer.echo(render(scan, fmt), nl=False)
    for r in scan.results:
        for e in r.errors:
            typer.echo(f"oomdoctor: {r.target.namespace}/{r.target.pod} [{r.target.container}]: {e}", err=True)
    if output is not None:
        from oomdoctor.report.files import write_outputs

        if not output.is_dir():  # the folder is the user's to make; the namespace folders inside are ours
            raise UsageError(f"--output {output}: no such folder (create it first)")
        written = []
        for r in scan.results:
            path = output / pod_filename(r, fmt)
            text = render_pod(r, fmt)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                if r.report is None:
                    path.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
            written += write_outputs(r.report, text, path) if r.report is not None else [path]
        typer.echo(f"oomdoctor: wrote {len(written)} file{'s' if len(written) != 1 else ''} under {output}", err=True)
    raise typer.Exit(int(ExitStatus.FINDINGS if scan.memory_failure else ExitStatus.OK))
