"""The schema: pytest-alembic's built-in checks (one head, upgrade, down/up, models = DDL)."""

from pytest_alembic.tests import (  # noqa: F401  (collected as tests of this module)
    test_model_definitions_match_ddl,
    test_single_head_revision,
    test_up_down_consistency,
    test_upgrade,
)
