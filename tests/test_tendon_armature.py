"""Armature on spatial tendons against ``mujoco==4.0.0``: ``M + a J^T J`` (within M's tree
pattern) and the velocity-product force ``a J^T (J̇ q̇)`` in ``qfrc_bias``, on a model whose
tendons run between sites on a free body, a ball joint, hinges in two branches, the world,
and through a pulley; ``forward`` and ``step`` with each integrator, every field."""
from __future__ import annotations

import numpy as np
import pytest
from feature_oracle import INTEGRATORS, check

import rbdl_edu as rbd
from rbdl_edu.io import ModelError

SCENE = """<mujoco model="spatial tendon armature"><option timestep="0.002"/>
  <worldbody>
    <site name="w0" pos="0 0 1.5"/><site name="w1" pos="0.5 0.2 1.2"/>
    <body name="a" pos="0 0 1"><joint name="a1" axis="0 1 0"/><joint name="a2" axis="1 0 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size=".03"/><site name="a_tip" pos="0.3 0 0.02"/>
      <site name="a_mid" pos="0.15 0.02 0"/>
      <body name="b" pos="0.3 0 0"><joint name="b" type="ball" damping="0.05"/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size=".025"/><site name="b_tip" pos="0.25 0 0"/></body></body>
    <body name="c" pos="0.6 0 1"><joint name="c" axis="0 0 1"/>
      <geom type="box" size=".1 .05 .05" pos="0.1 0 0"/><site name="c_tip" pos="0.2 0.05 0"/></body>
    <body name="f" pos="0 0.5 1"><freejoint/><geom type="box" size=".05 .05 .05"/>
      <site name="f0" pos="0.05 0 0"/><site name="f1" pos="0 0.05 0.05"/></body>
  </worldbody>
  <tendon>
    <spatial name="across" armature="0.3" stiffness="5" springlength="0.6"><site site="w0"/><site site="a_mid"/>
      <site site="a_tip"/><site site="b_tip"/><site site="c_tip"/></spatial>
    <spatial name="pulley" armature="0.15"><site site="w1"/><site site="f0"/><pulley divisor="2"/>
      <site site="f1"/><site site="c_tip"/></spatial>
    <fixed name="fixed" armature="0.2"><joint joint="a1" coef="1"/><joint joint="c" coef="-0.5"/></fixed>
  </tendon>
  <actuator><motor tendon="across" ctrlrange="-1 1"/><motor joint="c" ctrlrange="-1 1"/></actuator>
  <sensor><tendonpos tendon="across"/><tendonvel tendon="pulley"/></sensor>
</mujoco>"""


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_spatial_tendon_armature_matches_mujoco(integrator):
    check(SCENE, integrator, nstate=3, nskip=30, qvel=2.0)


def test_the_velocity_product_force_is_felt():
    """Not vacuous: the tendon's force J^T a (J̇ q̇) is a sizeable part of qfrc_bias."""
    model = rbd.load_model(SCENE)
    data = rbd.Data(model)
    data.qvel[:] = np.random.default_rng(1).normal(size=model.nv) * 2
    rbd.forward(model, data)
    without = model.replace(tendon_armature=np.zeros(model.ntendon))
    data0 = rbd.Data(without)
    data0.qpos[:], data0.qvel[:] = data.qpos, data.qvel
    rbd.forward(without, data0)
    assert np.abs(data.qfrc_bias - data0.qfrc_bias).max() > 1e-2


def test_armature_on_a_wrapping_tendon_is_refused():
    xml = """<mujoco><worldbody><site name="s0" pos="-1 0 0"/><geom name="g" size=".1"/>
      <body pos="1 0 0"><joint axis="0 1 0"/><geom size=".1"/><site name="s1"/></body></worldbody>
      <tendon><spatial armature="1"><site site="s0"/><geom geom="g"/><site site="s1"/></spatial></tendon></mujoco>"""
    with pytest.raises(ModelError, match="armature"):
        rbd.load_model(xml)
