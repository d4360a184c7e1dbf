"""An index on hc_checks.decision, for the ``decision`` filter of the check list and figures.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_hc_checks_decision", "hc_checks", ["decision", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_hc_checks_decision", table_name="hc_checks")
