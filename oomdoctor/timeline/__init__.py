"""The memory curve before a failure: bounded series from logs, recordings and Prometheus
(`series`), their shapes turned into facts and pressure windows (`shapes`), the recorder behind
`oomdoctor watch` (`recorder`), the Prometheus client behind `diagnose --prometheus`
(`prometheus`), and `oomdoctor run`'s incident folder (`incident`).

Importing this package is cheap; each module imports what it needs itself.
"""
