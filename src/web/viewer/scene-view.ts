/**
 * The 3D preview: a three.js renderer with orbit controls, the model's objects grouped per
 * response group (toggled on and off), a click that finds the feature under the pointer, the
 * camera fitted to the model, and counts taken from what the scene holds (the test hook's stats).
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { type Descriptor, featureAtTriangle, type ModelUserData } from './model-objects.ts';

export interface GroupStats {
  meshes: number;
  triangles: number;
  nodes: number;
}

export interface SceneStats {
  meshes: number;
  triangles: number;
  groups: Record<string, GroupStats>;
}

export interface CameraState {
  position: [number, number, number];
  target: [number, number, number];
}

export class SceneView {
  readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(45, 1, 1, 100_000);
  private readonly controls: OrbitControls;
  private readonly model = new THREE.Group();
  private readonly groups = new Map<string, THREE.Group>();
  private renderQueued = false;
  private readonly raycaster = new THREE.Raycaster();
  onPick: (descriptor: Descriptor | null, group: string | null) => void = () => {};
  onCameraChange: () => void = () => {};

  constructor(private readonly container: HTMLElement) {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    container.appendChild(this.renderer.domElement);
    this.scene.background = new THREE.Color(0xdde4ea);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x667766, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(0.5, 1, 0.35);
    this.scene.add(sun, this.model);
    this.camera.position.set(300, 400, 600);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.maxPolarAngle = Math.PI * 0.495;
    this.controls.addEventListener('change', () => {
      this.requestRender();
      this.onCameraChange();
    });
    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
    this.listenForClicks();
  }

  clear(): void {
    for (const g of this.groups.values()) {
      g.traverse((o) => {
        if ((o as THREE.Mesh).geometry) (o as THREE.Mesh).geometry.dispose();
      });
      this.model.remove(g);
    }
    this.groups.clear();
    this.requestRender();
  }

  /** Adds objects to a response group's node (made on first use). */
  add(group: string, objects: THREE.Object3D[]): void {
    let node = this.groups.get(group);
    if (!node) {
      node = new THREE.Group();
      node.name = group;
      this.groups.set(group, node);
      this.model.add(node);
    }
    for (const o of objects) node.add(o);
    this.requestRender();
  }

  setGroupVisible(group: string, visible: boolean): void {
    const node = this.groups.get(group);
    if (node) node.visible = visible;
    this.requestRender();
  }

  groupNames(): string[] {
    return [...this.groups.keys()];
  }

  /** Meshes, triangles and nodes of what is shown (hidden groups count nothing). */
  stats(): SceneStats {
    const out: SceneStats = { meshes: 0, triangles: 0, groups: {} };
    for (const [name, node] of this.groups) {
      const s: GroupStats = { meshes: 0, triangles: 0, nodes: 0 };
      if (node.visible) {
        node.traverse((o) => {
          const data = o.userData as ModelUserData;
          if (!o.visible || !data.kind) return;
          if (data.kind === 'nodes') {
            if (data.countsNodes) s.nodes += (o as THREE.InstancedMesh).count;
          } else if (data.kind === 'meshes' || data.kind === 'terrain') {
            const g = (o as THREE.Mesh).geometry;
            s.meshes += data.features.length;
            s.triangles += (g.index ? g.index.count : g.getAttribute('position').count) / 3;
          }
        });
      }
      out.groups[name] = s;
      out.meshes += s.meshes;
      out.triangles += s.triangles;
    }
    return out;
  }

  /** Points the camera at the whole model from the south-west, above. */
  fit(): void {
    const box = new THREE.Box3().setFromObject(this.model);
    if (box.isEmpty()) return;
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    const centre = sphere.center;
    // far enough for the whole bounding sphere to fit the narrower of the two fields of view, from the south-west, above
    const halfV = THREE.MathUtils.degToRad(this.camera.fov / 2);
    const halfH = Math.atan(Math.tan(halfV) * this.camera.aspect);
    const r = Math.max(sphere.radius, 30) / Math.sin(Math.min(halfV, halfH));
    const direction = new THREE.Vector3(-0.35, 0.8, 0.5).normalize();
    this.controls.target.copy(centre);
    this.camera.position.copy(centre).addScaledVector(direction, r);
    this.camera.far = r * 20;
    this.camera.near = Math.max(0.5, r / 2000);
    this.camera.updateProjectionMatrix();
    this.controls.update();
  }

  cameraState(): CameraState {
    const p = this.camera.position,
      t = this.controls.target;
    const r = (v: number) => Math.round(v * 10) / 10;
    return { position: [r(p.x), r(p.y), r(p.z)], target: [r(t.x), r(t.y), r(t.z)] };
  }

  setCamera(state: CameraState): void {
    this.camera.position.set(...state.position);
    this.controls.target.set(...state.target);
    const r = this.camera.position.distanceTo(this.controls.target);
    this.camera.far = Math.max(r * 20, 5000);
    this.camera.updateProjectionMatrix();
    this.controls.update();
  }

  /** The feature drawn at a canvas pixel (CSS pixels from the canvas's top left), or null. */
  pickAt(x: number, y: number): { descriptor: Descriptor; group: string } | null {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2((x / rect.width) * 2 - 1, -(y / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera);
    const visible = [...this.groups.values()].filter((g) => g.visible);
    for (const hit of this.raycaster.intersectObjects(visible, true)) {
      const data = hit.object.userData as ModelUserData;
      if (!data.kind || data.kind === 'lines') continue;
      const descriptor = data.kind === 'nodes' ? (data.features[hit.instanceId ?? 0] ?? null) : featureAtTriangle(data, hit.faceIndex ?? 0);
      if (descriptor) return { descriptor, group: data.group };
    }
    return null;
  }

  /** Where a feature with this id shows on the canvas (CSS pixels), for tests and links; null when not drawn. */
  screenPointOf(id: string): { x: number; y: number } | null {
    let found: THREE.Vector3 | null = null;
    this.model.traverse((o) => {
      const data = o.userData as ModelUserData;
      if (found || data.kind !== 'meshes' || !data.triangleStarts) return;
      const k = data.features.findIndex((f) => f.id === id);
      if (k < 0) return;
      // the centre of the feature's topmost triangle: a roof, visible from above
      const pos = (o as THREE.Mesh).geometry.getAttribute('position');
      let best = -Infinity;
      for (let t = data.triangleStarts[k]; t < data.triangleStarts[k + 1]; t++) {
        const y = (pos.getY(t * 3) + pos.getY(t * 3 + 1) + pos.getY(t * 3 + 2)) / 3;
        if (y > best) {
          best = y;
          found = new THREE.Vector3(
            (pos.getX(t * 3) + pos.getX(t * 3 + 1) + pos.getX(t * 3 + 2)) / 3,
            y,
            (pos.getZ(t * 3) + pos.getZ(t * 3 + 1) + pos.getZ(t * 3 + 2)) / 3,
          );
        }
      }
    });
    if (!found) return null;
    const ndc = (found as THREE.Vector3).project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    return { x: ((ndc.x + 1) / 2) * rect.width, y: ((1 - ndc.y) / 2) * rect.height };
  }

  /** Draws now (the caller awaits a frame to see it on screen). */
  renderNow(): void {
    this.renderQueued = false;
    this.renderer.render(this.scene, this.camera);
  }

  requestRender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => this.renderNow());
  }

  private resize(): void {
    const w = Math.max(1, this.container.clientWidth),
      h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  private listenForClicks(): void {
    const canvas = this.renderer.domElement;
    let down: { x: number; y: number } | null = null;
    canvas.addEventListener('pointerdown', (e) => {
      down = { x: e.offsetX, y: e.offsetY };
    });
    canvas.addEventListener('pointerup', (e) => {
      // a drag orbits the camera; only a click (little movement) picks
      if (!down || Math.hypot(e.offsetX - down.x, e.offsetY - down.y) > 4) return;
      const hit = this.pickAt(e.offsetX, e.offsetY);
      this.onPick(hit?.descriptor ?? null, hit?.group ?? null);
    });
  }
}
