"""Learners train on the environments as they are: sb3-contrib's ``MaskablePPO`` on the
Gymnasium environment, Tianshou's multi-agent DQN on the PettingZoo one.

A few thousand steps each, the smallest networks: the point is that the frameworks' own
training loops run unchanged (masks, spaces, resets, ends of games), not that they learn
to play. Every action they take is checked by the referee, which refuses an illegal one
(the Gymnasium environment ends the episode with ``info["illegal_action"]``, the
PettingZoo one raises), so a finished run also says that they kept to the mask. The
frameworks come from the ``rl-train`` extra (``make test`` installs it).
"""

from __future__ import annotations

from typing import Any

import pytest

torch = pytest.importorskip("torch", reason="the rl-train extra is not installed")
sb3_contrib = pytest.importorskip("sb3_contrib", reason="the rl-train extra is not installed")
tianshou = pytest.importorskip("tianshou", reason="the rl-train extra is not installed")

from gnoming_rules.adapters.gymnasium_env import GnomingGymEnv  # noqa: E402
from gnoming_rules.adapters.pettingzoo_env import env as pettingzoo_env  # noqa: E402


class CountingEnv(GnomingGymEnv):
    """The Gymnasium environment, counting the episodes an illegal action ended."""

    illegal = 0

    def step(self, action: Any) -> Any:
        result = super().step(action)
        self.illegal += bool(result[4].get("illegal_action"))
        return result


def test_maskable_ppo_trains_on_the_gymnasium_env() -> None:
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = CountingEnv("quick", 3, seat=0, bots="random")
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=256,
        batch_size=64,
        n_epochs=1,
        seed=1,
        policy_kwargs={"net_arch": [32]},
        device="cpu",
    )
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048 and env.illegal == 0
    observation, _ = env.reset(seed=3)
    action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]


def test_tianshou_multi_agent_dqn_trains_on_the_pettingzoo_env() -> None:
    from tianshou.algorithm.algorithm_base import OffPolicyAlgorithm
    from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    torch.set_num_threads(1)

    def make() -> PettingZooEnv:
        return PettingZooEnv(pettingzoo_env("quick", 3, move_limit=150))

    probe = make()
    shape = probe.observation_space["observation"].shape
    learners: list[OffPolicyAlgorithm[Any]] = []
    for _ in probe.agents:  # one DQN per seat, each masked by its own action mask
        net = Net(state_shape=shape, action_shape=probe.action_space.n, hidden_sizes=[32])
        policy = DiscreteQLearningPolicy(
            model=net,
            action_space=probe.action_space,
            observation_space=probe.observation_space,
            eps_training=0.3,
        )
        learners.append(DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3)))
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=learners, env=probe)
    training = DummyVectorEnv([make])
    training.seed(1)
    collector: Collector[Any] = Collector(
        algorithm, training, VectorReplayBuffer(4000, 1), exploration_noise=True
    )
    collector.reset()
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=1,
            epoch_num_steps=1000,
            collection_step_num_env_steps=100,
            update_step_num_gradient_steps_per_sample=0.1,
            batch_size=32,
            test_collector=None,
            show_progress=False,
            verbose=False,
        )
    )
    assert result.train_step >= 1000 and result.update_step > 0
    assert result.train_episode >= 5  # games ended (or reached the move limit) and restarted
