"""Renders one City Context GLB from a few cameras, for a person to look at.

Run by scripts/gallery/render-scenes.ts as
    blender -b --factory-startup --python scripts/gallery/render-scene.py -- <scene.glb> <views.json> <out dir>
views.json: {"name": "monaco", "polygon": [[x, y], ...], "views": [view, ...]} where a view is one of
    {"name", "kind": "oblique", "target": [x, y], "azimuth": deg, "elevation": deg, "distance": m, "lens": mm}
    {"name", "kind": "street", "from": [x, y], "to": [x, y], "eye": m, "lens": mm}
    {"name", "kind": "top", "centre": [x, y], "size": m}
in the export's local metres (x east, y north, the request origin at 0, 0): the GLB is written with
placement "anchor", and Blender's glTF importer turns glTF's Y-up into Z-up, so Blender's axes are
the request's (x east, y north, z height above sea level with projectToTopography).
Heights of targets and eyes are found by casting a ray down onto the ground and terrain pieces, so
a street view stands on whatever the model has there (a road, or terrain covering it).

Eevee with one sun lamp and soft shadows, materials as the file has them (one per kind and colour),
the "Standard" view transform so the colours are the file's. The top view also draws the request
polygon as a red line above everything, so what lies beyond it shows. Writes
<out dir>/<name>-<view>.png.
"""

import json
import math
import sys

import bpy
import numpy
from mathutils import Vector

# Debian's Blender 3.4 glTF importer still says `numpy.bool`, an alias NumPy 1.24 removed.
if "bool" not in numpy.__dict__:
    numpy.bool = bool

SUN_AZIMUTH = 210.0  # degrees clockwise from north the light comes from: a south-west afternoon sun
SUN_ELEVATION = 38.0
RESOLUTION = (1600, 1000)
TOP_RESOLUTION = 1400


def args():
    argv = sys.argv[sys.argv.index("--") + 1 :]
    if len(argv) != 3:
        raise SystemExit("usage: blender -b --python render-scene.py -- <scene.glb> <views.json> <out dir>")
    return argv


def descendants(name):
    root = bpy.data.objects.get(name)
    if root is None:
        return []
    out, stack = [], [root]
    while stack:
        obj = stack.pop()
        stack.extend(obj.children)
        if obj.type == "MESH":
            out.append(obj)
    return out


class Ground:
    """Height of the model's ground (surface and topography pieces) under a point, by casting rays down."""

    def __init__(self):
        self.objects = descendants("surface") + descendants("topography")
        self.fallback = 0.0
        zs = [(o.matrix_world @ Vector(c)).z for o in self.objects for c in o.bound_box]
        if zs:
            self.fallback = sum(zs) / len(zs)

    def height(self, x, y):
        best = None
        top = 100000.0
        for obj in self.objects:
            inv = obj.matrix_world.inverted()
            origin = inv @ Vector((x, y, top))
            direction = (inv.to_3x3() @ Vector((0, 0, -1))).normalized()
            hit, loc, _normal, _index = obj.ray_cast(origin, direction)
            if hit:
                z = (obj.matrix_world @ loc).z
                best = z if best is None else max(best, z)
        return self.fallback if best is None else best


def look_at(cam, eye, target):
    cam.location = eye
    cam.rotation_euler = (Vector(target) - Vector(eye)).to_track_quat("-Z", "Y").to_euler()


def setup_world(scene):
    scene.render.engine = "BLENDER_EEVEE"
    eevee = scene.eevee
    eevee.taa_render_samples = 8
    eevee.use_soft_shadows = True
    eevee.use_gtao = True
    eevee.gtao_distance = 4.0
    eevee.shadow_cascade_size = "2048"
    scene.view_settings.view_transform = "Standard"
    scene.view_settings.look = "None"
    world = bpy.data.worlds.new("sky")
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs[0].default_value = (0.62, 0.74, 0.9, 1.0)
    bg.inputs[1].default_value = 0.7
    scene.world = world
    sun_data = bpy.data.lights.new("sun", type="SUN")
    sun_data.energy = 3.5
    sun_data.angle = math.radians(1.5)
    sun_data.shadow_cascade_count = 4
    sun = bpy.data.objects.new("sun", sun_data)
    scene.collection.objects.link(sun)
    az, el = math.radians(SUN_AZIMUTH), math.radians(SUN_ELEVATION)
    towards_sun = Vector((math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), math.sin(el)))
    sun.rotation_euler = (-towards_sun).to_track_quat("-Z", "Y").to_euler()
    return sun_data


def polygon_outline(scene, ring, width):
    """The request polygon as a red ribbon above the whole model (drawn in the top view only)."""
    zs = [(o.matrix_world @ Vector(c)).z for o in scene.objects if o.type == "MESH" for c in o.bound_box]
    z = (max(zs) if zs else 0.0) + 10.0
    curve = bpy.data.curves.new("polygon", type="CURVE")
    curve.dimensions = "3D"
    curve.bevel_depth = width
    spline = curve.splines.new("POLY")
    spline.points.add(len(ring) - 1)
    for point, (x, y) in zip(spline.points, ring):
        point.co = (x, y, z, 1.0)
    spline.use_cyclic_u = True
    material = bpy.data.materials.new("polygon")
    material.use_nodes = True
    nodes = material.node_tree.nodes
    nodes.clear()
    emission = nodes.new("ShaderNodeEmission")
    emission.inputs[0].default_value = (0.9, 0.05, 0.05, 1.0)
    output = nodes.new("ShaderNodeOutputMaterial")
    material.node_tree.links.new(emission.outputs[0], output.inputs[0])
    curve.materials.append(material)
    obj = bpy.data.objects.new("polygon", curve)
    obj.visible_shadow = False
    scene.collection.objects.link(obj)
    return obj


def place_camera(scene, cam, sun_data, view, ground):
    data = cam.data
    data.clip_start = 0.3
    data.clip_end = 20000.0
    data.type = "PERSP"
    scene.render.resolution_x, scene.render.resolution_y = RESOLUTION
    kind = view["kind"]
    if kind == "oblique":
        tx, ty = view["target"]
        target = Vector((tx, ty, ground.height(tx, ty)))
        az, el, d = math.radians(view["azimuth"]), math.radians(view["elevation"]), view["distance"]
        eye = target + d * Vector((math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), math.sin(el)))
        look_at(cam, eye, target)
        data.lens = view.get("lens", 35)
        sun_data.shadow_cascade_max_distance = 3 * d
    elif kind == "street":
        (fx, fy), (tx, ty) = view["from"], view["to"]
        eye_height = view.get("eye", 1.7)
        eye = Vector((fx, fy, ground.height(fx, fy) + eye_height))
        target = Vector((tx, ty, ground.height(tx, ty) + eye_height))
        look_at(cam, eye, target)
        data.lens = view.get("lens", 22)
        sun_data.shadow_cascade_max_distance = 600
    elif kind == "top":
        cx, cy = view["centre"]
        data.type = "ORTHO"
        data.ortho_scale = view["size"]
        cam.location = (cx, cy, ground.height(cx, cy) + 5000)
        cam.rotation_euler = (0, 0, 0)
        scene.render.resolution_x = scene.render.resolution_y = TOP_RESOLUTION
        sun_data.shadow_cascade_max_distance = 8000
    else:
        raise SystemExit(f"unknown view kind {kind}")
    return cam.location, cam.rotation_euler


def main():
    glb, views_file, out_dir = args()
    with open(views_file, encoding="utf-8") as f:
        spec = json.load(f)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=glb)
    scene = bpy.context.scene
    sun_data = setup_world(scene)
    cam = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    scene.collection.objects.link(cam)
    scene.camera = cam
    ground = Ground()
    print(f"render-scene: {len(ground.objects)} ground and terrain pieces")
    top_size = max((v["size"] for v in spec["views"] if v["kind"] == "top"), default=1000)
    outline = polygon_outline(scene, spec.get("polygon", []), top_size / 700) if spec.get("polygon") else None
    for view in spec["views"]:
        if outline is not None:
            outline.hide_render = view["kind"] != "top"
        place_camera(scene, cam, sun_data, view, ground)
        scene.render.filepath = f"{out_dir}/{spec['name']}-{view['name']}.png"
        bpy.ops.render.render(write_still=True)
        print(f"render-scene: wrote {scene.render.filepath} (camera at {tuple(round(c, 1) for c in cam.location)})")


main()
