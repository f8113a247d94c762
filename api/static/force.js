// A small force-directed layout: nodes repel each other, edges pull like springs, and a weak
// pull towards the centre keeps the graph on screen. Plain velocity Verlet with cooling, which is
// ample for the ~150 nodes the inspector shows (repulsion is O(n^2)).
"use strict";

class ForceLayout {
  constructor(nodes, edges, { width, height }) {
    this.nodes = nodes;
    this.width = width;
    this.height = height;
    const byId = new Map(nodes.map((n) => [n.id, n]));
    this.links = edges
      .map((e) => ({ source: byId.get(e.source), target: byId.get(e.target), kind: e.kind }))
      .filter((l) => l.source && l.target);
    // Start on a circle so that no two nodes coincide (coincident nodes get no repulsion direction).
    nodes.forEach((n, i) => {
      const angle = (2 * Math.PI * i) / Math.max(nodes.length, 1);
      const radius = Math.min(width, height) * 0.3;
      n.x = n.x ?? width / 2 + radius * Math.cos(angle);
      n.y = n.y ?? height / 2 + radius * Math.sin(angle);
      n.vx = 0;
      n.vy = 0;
    });
    this.alpha = 1;
  }

  // Advance one step; returns false once the layout has cooled down.
  tick() {
    const { nodes, links } = this;
    const repulsion = 9000;
    const springLength = 120;
    const springStrength = 0.04;
    const gravity = 0.006;
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        const a = nodes[i];
        const b = nodes[j];
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        let d2 = dx * dx + dy * dy;
        if (d2 < 1) {
          dx = Math.random() - 0.5;
          dy = Math.random() - 0.5;
          d2 = 1;
        }
        const f = (repulsion / d2) * this.alpha;
        const d = Math.sqrt(d2);
        a.vx -= (f * dx) / d;
        a.vy -= (f * dy) / d;
        b.vx += (f * dx) / d;
        b.vy += (f * dy) / d;
      }
    }
    for (const { source: a, target: b } of links) {
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const d = Math.sqrt(dx * dx + dy * dy) || 1;
      const f = (d - springLength) * springStrength * this.alpha;
      a.vx += (f * dx) / d;
      a.vy += (f * dy) / d;
      b.vx -= (f * dx) / d;
      b.vy -= (f * dy) / d;
    }
    for (const n of nodes) {
      n.vx += (this.width / 2 - n.x) * gravity * this.alpha;
      n.vy += (this.height / 2 - n.y) * gravity * this.alpha;
      if (n.fixed) {  // a node being dragged stays under the pointer
        n.vx = 0;
        n.vy = 0;
        continue;
      }
      n.vx *= 0.6;  // friction
      n.vy *= 0.6;
      n.x += n.vx;
      n.y += n.vy;
    }
    this.alpha *= 0.985;
    return this.alpha > 0.02;
  }

  // Warm the layout up again (after a drag) so neighbours follow.
  reheat(alpha = 0.3) {
    this.alpha = Math.max(this.alpha, alpha);
  }
}
