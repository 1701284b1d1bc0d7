"""Campaigns: a gang's ledger of battles (append-only), the state it leads to, and the
standings of a club's campaign (api-v1.md, « Campaigns »). `ledger` is pure; `service`
stores and reads."""
