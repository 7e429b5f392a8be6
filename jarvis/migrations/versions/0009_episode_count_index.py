"""An index on (doctor_id, state), so counting a doctor's committed episodes reads only the index.

The agent loop counts them after every save (jarvis/agent/summaries.py: is the long-term summary N
episodes old?). Through ix_episodes_doctor_created each counted episode cost a read of its row, to
check its state: ~5 ms per ask for a doctor with 1,000 episodes in a 100k store (bench/agent_bench.py).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_episodes_doctor_state", "episodes", ["doctor_id", "state"])


def downgrade() -> None:
    op.drop_index("ix_episodes_doctor_state", table_name="episodes")
