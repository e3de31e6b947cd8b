"""Models keep the backend's contract; training steps lower the loss; the split is by game;
checkpoints from one run resume and export; the progress line's time left counts past a day."""
import json
import os
import pickletools
import tempfile
import unittest
import zipfile

import numpy as np
import torch

from training import data as data_mod
from training import models


class Models(unittest.TestCase):
    def test_every_architecture_has_the_output_contract(self):
        for arch in ("resnet-2x16", "mobile-2x16"):
            net = models.build(arch).eval()
            with torch.no_grad():
                v, p = net(torch.randn(3, 34, 8, 8))
            self.assertEqual(tuple(v.shape), (3, 1), arch)
            self.assertEqual(tuple(p.shape), (3, 5184), arch)
            self.assertTrue((v.abs() <= 1).all())
            scripted = torch.jit.script(net)
            with torch.no_grad():
                v2, p2 = scripted(torch.ones(2, 34, 8, 8))
                v1, p1 = net(torch.ones(2, 34, 8, 8))
            torch.testing.assert_close(p1, p2)

    def test_bad_architecture_names_are_refused(self):
        for bad in ("resnet", "resnet-6by64", "transformer-6x64"):
            with self.assertRaises(ValueError):
                models.parse_arch(bad)

    def test_a_few_steps_lower_the_loss_on_a_fixed_batch(self):
        torch.manual_seed(0)
        net = models.build("resnet-1x16")
        x = torch.randn(32, 34, 8, 8)
        target = torch.randint(0, 5184, (32,))
        opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
        losses = []
        for _ in range(15):
            _, p = net(x)
            loss = torch.nn.functional.cross_entropy(p, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss))
        self.assertLess(losses[-1], losses[0] * 0.8)


class Split(unittest.TestCase):
    def test_split_is_by_game_and_stable(self):
        ids = np.arange(1, 200001, dtype=np.uint64) * np.uint64(7919)
        val = data_mod.is_validation(ids, 50)
        self.assertAlmostEqual(val.mean(), 0.05, delta=0.005)
        np.testing.assert_array_equal(val, data_mod.is_validation(ids, 50))
        # A game's positions share its id, so they all fall on one side.
        same_game = np.full(71, ids[3], dtype=np.uint64)
        self.assertIn(data_mod.is_validation(same_game, 50).sum(), (0, 71))

    def test_value_target_from_scores(self):
        from training import records as rec
        v = data_mod.score_to_value(
            np.array([0, 400, -400, rec.MATE_SCORE - 3, -rec.MATE_SCORE + 1]))
        t400 = np.tanh(400 / data_mod.VALUE_SCALE_CP)
        np.testing.assert_allclose(v, [0, t400, -t400, 1, -1], rtol=1e-6)


if __name__ == "__main__":
    unittest.main()


class ProgressLine(unittest.TestCase):
    def test_the_time_left_counts_hours_past_a_day(self):
        from training.train import duration_text
        self.assertEqual(duration_text(8 * 3600 + 41 * 60 + 41), "08:41:41")
        self.assertEqual(duration_text(26 * 3600 + 5), "26:00:05")
        self.assertEqual(duration_text(59.6), "00:01:00")
        self.assertEqual(duration_text(float("nan")), "?")


class Checkpoints(unittest.TestCase):
    def test_training_checkpoints_load_as_plain_weights(self):
        """A checkpoint pickles tensors, numbers and strings only (no class of ours), so a
        network trained with another torch version (a GPU machine) exports here."""
        from training import export
        net = models.build("resnet-1x8")
        state = {"model": net.state_dict(), "arch": models.parse_arch("resnet-1x8"),
                 "config": {"lr": 0.1, "data": ["x"], "policy_temperature": None}, "step": 3,
                 "metrics": {"top1": 0.5, "mate_in_one_top1": None},
                 "torch_version": str(torch.__version__)}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "best.ckpt")
            torch.save(state, path)
            with zipfile.ZipFile(path) as z:
                pickle_bytes = z.read(next(n for n in z.namelist() if n.endswith("data.pkl")))
            globals_used = {arg for op, arg, _ in pickletools.genops(pickle_bytes)
                            if op.name in ("GLOBAL", "STACK_GLOBAL") and arg}
            allowed = {"torch._utils _rebuild_tensor_v2", "collections OrderedDict",
                       "torch FloatStorage", "torch LongStorage"}
            self.assertLessEqual(globals_used, allowed)
            loaded, _ = export.load_checkpoint(path)
            out = os.path.join(tmp, "net.pt")
            export.save_torchscript(loaded, out, {"architecture": "resnet-1x8"})
            scripted = torch.jit.load(out)
            with torch.no_grad():
                torch.testing.assert_close(scripted(torch.ones(1, 34, 8, 8))[1],
                                           net.eval()(torch.ones(1, 34, 8, 8))[1])

    def test_a_warm_start_takes_a_model_files_weights_and_refuses_another_architecture(self):
        from training import export, train
        net = models.build("resnet-1x8")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "net.pt")
            export.save_torchscript(net, out, {"architecture": "resnet-1x8"})
            weights = train.initial_weights(out, "resnet-1x8")
            for name, tensor in net.state_dict().items():
                torch.testing.assert_close(weights[name], tensor, msg=name)
            with self.assertRaises(SystemExit) as refused:
                train.initial_weights(out, "resnet-2x8")
            self.assertIn("does not fit --arch resnet-2x8", str(refused.exception))

    def test_a_format_2_network_says_so_and_a_format_1_warm_start_widens_into_it(self):
        from training import export, train
        net = models.build("resnet-1x8", input_planes=46)
        self.assertEqual(models.input_planes_of(net), 46)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "net.pt")
            export.save_torchscript(net, out, {"architecture": "resnet-1x8"})
            extra = {"zhbot.json": ""}
            scripted = torch.jit.load(out, _extra_files=extra)
            self.assertEqual(json.loads(extra["zhbot.json"])["input_version"], "2.0")
            self.assertEqual(scripted(torch.ones(2, 46, 8, 8))[1].shape, (2, 5184))
            # A format 1.0 network starts a format 2.0 one as itself: on an input whose first
            # 34 planes are the 1.0 input, whatever the 12 new planes hold, the same outputs.
            torch.manual_seed(3)
            narrow = models.build("resnet-1x8").eval()
            with torch.no_grad():  # BatchNorm statistics other than the fresh ones
                for m in narrow.modules():
                    if isinstance(m, torch.nn.BatchNorm2d):
                        m.running_mean.uniform_(-0.5, 0.5)
                        m.running_var.uniform_(0.5, 2.0)
            v1 = os.path.join(tmp, "v1.pt")
            export.save_torchscript(narrow, v1, {"architecture": "resnet-1x8"})
            said = []
            wide = models.build("resnet-1x8", input_planes=46)
            wide.load_state_dict(train.initial_weights(
                v1, dict(models.parse_arch("resnet-1x8"), input_planes=46), say=said.append))
            wide.eval()
            x = torch.randn(4, 34, 8, 8)
            with torch.no_grad():
                v_narrow, p_narrow = narrow(x)
                v_wide, p_wide = wide(torch.cat([x, torch.randn(4, 12, 8, 8)], dim=1))
            torch.testing.assert_close(v_wide, v_narrow)
            torch.testing.assert_close(p_wide, p_narrow)
            self.assertEqual(len(said), 1)
            self.assertIn("format 1.0 (34 planes); the 12 planes format 2.0 adds start at zero",
                          said[0])
            # The other way round does not fit: format 1.0 data lacks planes 2.0 was trained on.
            with self.assertRaises(SystemExit) as refused:
                train.initial_weights(out, "resnet-1x8")
            self.assertIn("34 input planes", str(refused.exception))
        with self.assertRaises(ValueError):
            models.build("resnet-1x8", input_planes=40)

    def test_a_step_count_and_a_time_budget_together_are_refused(self):
        from contextlib import redirect_stderr
        import io
        from training import train
        base = ["--data", "d", "--out", "o"]
        self.assertEqual(train.parse_args(base + ["--max-steps", "5"]).max_steps, 5)
        self.assertEqual(train.parse_args(base + ["--time-budget-minutes", "2"])
                         .time_budget_minutes, 2)
        errors = io.StringIO()
        with redirect_stderr(errors), self.assertRaises(SystemExit) as refused:
            train.parse_args(base + ["--max-steps", "5", "--time-budget-minutes", "2"])
        self.assertEqual(refused.exception.code, 2)
        self.assertIn("give one of them", errors.getvalue())
