"""The tables of the check store (SQLAlchemy 2.0 declarative models).

Each served check is one ``checks`` row holding the case, the report and the timings as JSON,
plus the few scalar columns the monitoring queries and list filters need (risk, level, counts of
invalid citations and uncited sentences), so those queries never parse JSON. Which labels were
raised and which detectors flagged go to ``check_tags`` rows: one indexed lookup on SQLite and
PostgreSQL alike, where a JSON-contains filter would differ between the two.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Base", "CheckRow", "CheckTag", "ApiKeyRow", "SchemaVersion"]


class Base(DeclarativeBase):
    pass


class SchemaVersion(Base):
    __tablename__ = "hc_schema_version"

    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    applied_at: Mapped[datetime] = mapped_column(DateTime, nullable=False)
    description: Mapped[str] = mapped_column(String(200), default="")


class CheckRow(Base):
    __tablename__ = "hc_checks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, nullable=False)
    # Seconds since the epoch: integer bucketing for trends is the same SQL on every backend.
    created_epoch: Mapped[int] = mapped_column(BigInteger, nullable=False)
    api_key_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    batch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    task: Mapped[str] = mapped_column(String(16), default="generic")
    language: Mapped[str] = mapped_column(String(16), default="")
    policy: Mapped[str] = mapped_column(String(32), default="")
    hallucinated: Mapped[bool] = mapped_column(Boolean, nullable=False)
    risk_score: Mapped[float] = mapped_column(Float, nullable=False)
    risk_level: Mapped[str] = mapped_column(String(16), nullable=False)
    decision: Mapped[str] = mapped_column(String(16), nullable=False)
    span_count: Mapped[int] = mapped_column(Integer, default=0)
    invalid_citations: Mapped[int] = mapped_column(Integer, default=0)
    uncited_sentences: Mapped[int] = mapped_column(Integer, default=0)
    citations_applied: Mapped[bool] = mapped_column(Boolean, default=False)
    llm_calls: Mapped[int] = mapped_column(Integer, default=0)
    llm_tokens: Mapped[int] = mapped_column(Integer, default=0)
    latency_ms: Mapped[float] = mapped_column(Float, default=0.0)
    answer_preview: Mapped[str] = mapped_column(Text, default="")
    case: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    report: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    timings: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)

    __table_args__ = (
        Index("ix_hc_checks_created_at", "created_at"),
        Index("ix_hc_checks_risk_level", "risk_level"),
        Index("ix_hc_checks_key_created", "api_key_id", "created_at"),
        Index("ix_hc_checks_decision", "decision", "created_at"),
    )


class CheckTag(Base):
    """``kind`` is "label" (a span label in the report) or "detector" (a detector that flagged)."""

    __tablename__ = "hc_check_tags"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    check_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("hc_checks.id", ondelete="CASCADE"), nullable=False
    )
    kind: Mapped[str] = mapped_column(String(16), nullable=False)
    value: Mapped[str] = mapped_column(String(64), nullable=False)

    __table_args__ = (
        Index("ix_hc_check_tags_lookup", "kind", "value", "check_id"),
        Index("ix_hc_check_tags_check", "check_id"),
    )


class ApiKeyRow(Base):
    """An API key: only its SHA-256 digest is stored; the key itself is shown once at creation."""

    __tablename__ = "hc_api_keys"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    digest: Mapped[str] = mapped_column(String(128), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
