"""Checks, their tags and API keys, with the indexes the list filters and trends use.

The schema of every store made before Alembic (their ``hc_schema_version`` says 1).

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hc_checks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("created_epoch", sa.BigInteger(), nullable=False),
        sa.Column("api_key_id", sa.String(64), nullable=True),
        sa.Column("batch_id", sa.String(32), nullable=True),
        sa.Column("task", sa.String(16), nullable=False),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("policy", sa.String(32), nullable=False),
        sa.Column("hallucinated", sa.Boolean(), nullable=False),
        sa.Column("risk_score", sa.Float(), nullable=False),
        sa.Column("risk_level", sa.String(16), nullable=False),
        sa.Column("decision", sa.String(16), nullable=False),
        sa.Column("span_count", sa.Integer(), nullable=False),
        sa.Column("invalid_citations", sa.Integer(), nullable=False),
        sa.Column("uncited_sentences", sa.Integer(), nullable=False),
        sa.Column("citations_applied", sa.Boolean(), nullable=False),
        sa.Column("llm_calls", sa.Integer(), nullable=False),
        sa.Column("llm_tokens", sa.Integer(), nullable=False),
        sa.Column("latency_ms", sa.Float(), nullable=False),
        sa.Column("answer_preview", sa.Text(), nullable=False),
        sa.Column("case", sa.JSON(), nullable=False),
        sa.Column("report", sa.JSON(), nullable=False),
        sa.Column("timings", sa.JSON(), nullable=False),
    )
    op.create_index("ix_hc_checks_created_at", "hc_checks", ["created_at"])
    op.create_index("ix_hc_checks_risk_level", "hc_checks", ["risk_level"])
    op.create_index("ix_hc_checks_key_created", "hc_checks", ["api_key_id", "created_at"])
    op.create_table(
        "hc_check_tags",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("check_id", sa.String(32), sa.ForeignKey("hc_checks.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("value", sa.String(64), nullable=False),
    )
    op.create_index("ix_hc_check_tags_lookup", "hc_check_tags", ["kind", "value", "check_id"])
    op.create_index("ix_hc_check_tags_check", "hc_check_tags", ["check_id"])
    op.create_table(
        "hc_api_keys",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("digest", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("hc_check_tags")
    op.drop_table("hc_checks")
    op.drop_table("hc_api_keys")
