"""Renders the node gallery GLB (every node type's model in rows, scripts/gallery/node-gallery.ts).

Run by scripts/gallery/render-exports.ts as
    blender -b --factory-startup --python scripts/gallery/render-models.py -- <gallery.glb> <labels.json> <out dir>
labels.json: {"labels": [{"text", "type", "position": [x, y, z], "height"}], "rows": [{"name", "x0", "x1", "y", "height", "stretch"}]}
in the scene's metres (x east, y north, z up: Blender's glTF importer turns glTF's Y-up back to Z-up).

Each row is cut into stretches a picture can show (the row's `stretch` metres long at most) and rendered from the front (south-east, looking north-west) and from behind,
each model's label written flat on the ground on the camera's side of it. Cables (glTF line strips,
which Blender imports as edges and would not render) are drawn as thin tubes. Writes
<out dir>/models-<row>[-<part>]-<front|back>.png, and each structure 20 m or taller close up from the
front, <out dir>/models-closeup-<type>.png. RENDER_ROWS=name,name renders only those rows (`closeups`
for the close-ups),
RENDER_SAMPLES the Eevee samples (default 16).
"""

import json
import math
import os
import sys

import bpy
import numpy
from mathutils import Vector

# Debian's Blender 3.4 glTF importer still says `numpy.bool`, an alias NumPy 1.24 removed.
if "bool" not in numpy.__dict__:
    numpy.bool = bool

RESOLUTION = (1800, 1000)
LENS = 35.0
ROW_REACH = 20.0  # metres either side of a row's line that belong to it


def world_y(obj):
    """The y of an object's bounding box centre in the world (glTF nodes carry their place in their transform)."""
    corners = [obj.matrix_world @ Vector(c) for c in obj.bound_box]
    return sum(c.y for c in corners) / len(corners)


def args():
    argv = sys.argv[sys.argv.index("--") + 1 :]
    if len(argv) != 3:
        raise SystemExit("usage: blender -b --python render-models.py -- <gallery.glb> <labels.json> <out dir>")
    return argv


def setup_world(scene):
    scene.render.engine = "BLENDER_EEVEE"
    scene.eevee.taa_render_samples = int(os.environ.get("RENDER_SAMPLES", "16"))
    scene.eevee.use_soft_shadows = True
    scene.eevee.use_gtao = True
    scene.eevee.shadow_cascade_size = "2048"
    scene.view_settings.view_transform = "Standard"
    world = bpy.data.worlds.new("sky")
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs[0].default_value = (0.62, 0.74, 0.9, 1.0)
    bg.inputs[1].default_value = 0.8
    scene.world = world
    sun_data = bpy.data.lights.new("sun", type="SUN")
    sun_data.energy = 3.5
    sun_data.angle = math.radians(2)
    sun = bpy.data.objects.new("sun", sun_data)
    scene.collection.objects.link(sun)
    # from the south-east, high: the fronts (turned south) and the east sides lit
    az, el = math.radians(150), math.radians(45)
    towards = Vector((math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), math.sin(el)))
    sun.rotation_euler = (-towards).to_track_quat("-Z", "Y").to_euler()
    return sun_data


def emission(name, rgb):
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes = material.node_tree.nodes
    nodes.clear()
    e = nodes.new("ShaderNodeEmission")
    e.inputs[0].default_value = (*rgb, 1.0)
    out = nodes.new("ShaderNodeOutputMaterial")
    material.node_tree.links.new(e.outputs[0], out.inputs[0])
    return material


def cables_as_tubes(scene):
    """Meshes with edges but no faces (glTF lines) become curves with a round section."""
    black = emission("cable", (0.05, 0.05, 0.05))
    for obj in list(scene.objects):
        if obj.type == "MESH" and len(obj.data.polygons) == 0 and len(obj.data.edges) > 0:
            bpy.context.view_layer.objects.active = obj
            for o in scene.objects:
                o.select_set(o == obj)
            bpy.ops.object.convert(target="CURVE")
            obj.data.bevel_depth = 0.12
            obj.data.materials.clear()
            obj.data.materials.append(black)
            print(f"render-models: cable {obj.name} drawn as a tube")


def label(scene, text, x, y, size, back, material):
    curve = bpy.data.curves.new(f"label {text}", type="FONT")
    curve.body = text
    curve.size = size
    curve.align_x = "CENTER"
    curve.align_y = "CENTER"
    curve.materials.append(material)
    obj = bpy.data.objects.new(f"label {text}{' back' if back else ''}", curve)
    obj.location = (x, y, 0.05 + 0.02 * size)
    obj.rotation_euler = (0, 0, math.pi if back else 0)
    obj.visible_shadow = False
    scene.collection.objects.link(obj)
    return obj


def main():
    glb, labels_file, out_dir = args()
    with open(labels_file, encoding="utf-8") as f:
        spec = json.load(f)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=glb)
    scene = bpy.context.scene
    sun_data = setup_world(scene)
    cables_as_tubes(scene)
    ink = emission("label", (0.08, 0.08, 0.35))
    cam = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    scene.collection.objects.link(cam)
    scene.camera = cam
    cam.data.lens = LENS
    cam.data.clip_start = 0.1
    cam.data.clip_end = 5000
    scene.render.resolution_x, scene.render.resolution_y = RESOLUTION

    fronts, backs = [], []
    for item in spec["labels"]:
        x, y, _ = item["position"]
        h = item["height"]
        size = 0.22 + 0.05 * h + 0.0005 * h * h
        gap = 1.2 + 0.12 * h
        fronts.append(label(scene, item["text"], x, y - gap, size, False, ink))
        backs.append(label(scene, item["text"], x, y + gap, size, True, ink))

    models = [o for o in scene.objects if o.type in ("MESH", "CURVE") and not o.name.startswith("label ") and not o.name.startswith("apron")]
    fov = 2 * math.atan(18 / LENS)  # horizontal, 36 mm film
    only = [n for n in os.environ.get("RENDER_ROWS", "").split(",") if n]
    for row in spec["rows"]:
        if only and row["name"] not in only:
            continue
        # only this row shows: the others would stand between the camera and it
        for obj in models + fronts + backs:
            obj.hide_render = abs(world_y(obj) - row["y"]) > ROW_REACH
        length = row["x1"] - row["x0"]
        parts = max(1, math.ceil(length / row["stretch"]))
        for part in range(parts):
            a = row["x0"] + part * length / parts
            b = a + length / parts
            width = b - a
            distance = max(0.55 * width / math.tan(fov / 2), 1.6 * row["height"])
            target = Vector(((a + b) / 2, row["y"], 0.3 * row["height"]))
            for view, azimuth in (("front", 165.0), ("back", -15.0)):
                for obj in fronts:
                    obj.hide_render = view != "front" or abs(world_y(obj) - row["y"]) > ROW_REACH
                for obj in backs:
                    obj.hide_render = view != "back" or abs(world_y(obj) - row["y"]) > ROW_REACH
                az, el = math.radians(azimuth), math.radians(18)
                eye = target + distance * Vector((math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), math.sin(el)))
                cam.location = eye
                cam.rotation_euler = (target - eye).to_track_quat("-Z", "Y").to_euler()
                sun_data.shadow_cascade_max_distance = 3 * distance
                # a near plane in proportion, so labels a few centimetres above the ground do not flicker into it far away
                cam.data.clip_start = max(0.1, distance / 300)
                suffix = f"-{part + 1}" if parts > 1 else ""
                scene.render.filepath = f"{out_dir}/models-{row['name']}{suffix}-{view}.png"
                bpy.ops.render.render(write_still=True)
                print(f"render-models: wrote {scene.render.filepath}")

    # the tall structures one by one, close enough to see their members
    if not only or "closeups" in only:
        for item in spec["labels"]:
            if item["height"] < 20 or item["type"] in ("tree", "wire") or item["text"].endswith(" 2"):
                continue
            x, y, _ = item["position"]
            h = item["height"]
            for obj in models + fronts + backs:
                obj.hide_render = obj in backs or abs(world_y(obj) - y) > ROW_REACH
            target = Vector((x, y, 0.45 * h))
            az, el, distance = math.radians(150.0), math.radians(12), 2.3 * h
            cam.location = target + distance * Vector((math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), math.sin(el)))
            cam.rotation_euler = (target - cam.location).to_track_quat("-Z", "Y").to_euler()
            cam.data.clip_start = max(0.1, distance / 300)
            sun_data.shadow_cascade_max_distance = 3 * distance
            scene.render.filepath = f"{out_dir}/models-closeup-{item['type']}.png"
            bpy.ops.render.render(write_still=True)
            print(f"render-models: wrote {scene.render.filepath}")


main()
