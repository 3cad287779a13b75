import type { Command } from '../command.js';

/**
 * A `mocap` subcommand as `--help` lists it. `load` imports its module, and with it what the
 * command needs (the reader's tfjs, Blender's bridge, fal's client...), only when the command
 * runs: `mocap --help` or `mocap solve` then start without loading the reader. `summary` is the
 * module's own (a test keeps the two equal).
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

/** Every `mocap` subcommand, in the order `--help` lists them. */
export const commands: readonly CommandEntry[] = [
  {
    name: 'layout',
    summary: 'Print the resolved two-view frame layout',
    load: async () => (await import('./layout.js')).layoutCommand,
  },
  {
    name: 'init',
    summary:
      "Propose creature.json from the creature's skeleton (rig.json, else model.glb's skin) for review",
    load: async () => (await import('./init.js')).initCommand,
  },
  {
    name: 'prep',
    summary: "Import the creature's model.glb at real size, facing -Y, on the ground (Blender)",
    load: async () => (await import('./prep.js')).prepCommand,
  },
  {
    name: 'rig',
    summary: 'Rig from rig.json or the skin in model.glb: armature, weights, limb paint (Blender)',
    load: async () => (await import('./rig.js')).rigCommand,
  },
  {
    name: 'ref',
    summary: 'Render the two-view reference frame ref.png (Blender)',
    load: async () => (await import('./ref.js')).refCommand,
  },
  {
    name: 'prompt',
    summary: "Write prompts/<move>.txt from creature.json's words and one action sentence",
    load: async () => (await import('./prompt.js')).promptCommand,
  },
  {
    name: 'generate',
    summary: 'Generate a two-view clip on fal (image to video), resumable',
    load: async () => (await import('./generate.js')).generateCommand,
  },
  {
    name: 'dataset',
    summary: 'Render N random poses from both views with true joints, resumable (Blender)',
    load: async () => (await import('./dataset.js')).datasetCommand,
  },
  {
    name: 'train',
    summary: "Train the creature's heatmap reader on its rendered dataset (resumable)",
    load: async () => (await import('./train.js')).trainCommand,
  },
  {
    name: 'detect',
    summary: 'Read a two-view clip to joints in both views (det.npz) with the trained reader',
    load: async () => (await import('./detect.js')).detectCommand,
  },
  {
    name: 'solve',
    summary: 'Fit the rig to two-view detections (det.npz -> motion.json)',
    load: async () => (await import('./solve.js')).solveCommand,
  },
  {
    name: 'apply',
    summary: 'Key the rig from motion.json; joints.json, renders, glTF, BVH, FBX (Blender)',
    load: async () => (await import('./apply.js')).applyCommand,
  },
  {
    name: 'capture',
    summary: 'Capture a two-view clip onto the rig: detect, solve, apply, showcase.mp4',
    load: async () => (await import('./capture.js')).captureCommand,
  },
  {
    name: 'lora',
    summary: 'Train a video LoRA on fal from captured motions (+ mirrored), resumable',
    load: async () => (await import('./lora.js')).loraCommand,
  },
  {
    name: 'exam',
    summary: 'Score the chain on a seeded motion with known truth (per-joint error in cm)',
    load: async () => (await import('./exam.js')).examCommand,
  },
  {
    name: 'demo',
    summary:
      'Offline end to end on the bundled wolf: a rendered known clip through capture (animation.glb, showcase.mp4), scored',
    load: async () => (await import('./demo.js')).demoCommand,
  },
  {
    name: 'worker',
    summary: 'Run queued jobs (dataset shards, captures) from a Redis job queue on this machine',
    load: async () => (await import('./worker.js')).workerCommand,
  },
  {
    name: 'view',
    summary: 'Look at a capture or exam folder in the browser: clip + detections beside the animated rig',
    load: async () => (await import('./view.js')).viewCommand,
  },
];
