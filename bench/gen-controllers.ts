import { Random } from './random';

/** A generated controller: where it lives and which public methods a URL can reach. */
export interface Controller {
  /** HMVC module (`application/modules/<module>/controllers/`), if any. */
  module?: string;
  /** Sub-folder of `application/controllers/`, if any. */
  dir?: string;
  /** The class name in lower case, as targets write it. */
  name: string;
  methods: string[];
  /** Path relative to the application folder. */
  file: string;
  /** Route names it passes to `Route::named()` (header names every route file declares). */
  namedUses: string[];
}

/** How a route target reaches this controller: `module/name`, `dir/name` or `name`. */
export function targetOf(c: Controller): string {
  return c.module ? `${c.module}/${c.name}` : c.dir ? `${c.dir}/${c.name}` : c.name;
}

export const CONTROLLER_COUNT = 2000;
export const REST_METHODS = ['index', 'create_new', 'create', 'show', 'edit', 'update', 'delete'];
const EXTRA_METHODS = ['search', 'export', 'feed', 'archive', 'preview', 'publish', 'approve', 'download', 'stats', 'settings', 'import', 'print_view'];

/** Nouns for controllers and URL slugs (none starts with 'z': the edit writes a 'z'). */
export const NOUNS = [
  'orders', 'invoices', 'customers', 'products', 'articles', 'photos', 'events', 'members', 'teams', 'players',
  'matches', 'venues', 'tickets', 'bookings', 'rooms', 'courses', 'lessons', 'students', 'teachers', 'grades',
  'payments', 'refunds', 'coupons', 'vendors', 'shipments', 'warehouses', 'suppliers', 'contracts', 'projects', 'tasks',
  'issues', 'releases', 'builds', 'comments', 'reviews', 'ratings', 'tags', 'categories', 'pages', 'menus',
  'banners', 'sliders', 'faqs', 'polls', 'surveys', 'answers', 'questions', 'badges', 'rewards', 'messages',
];
const QUALIFIERS = ['archived', 'pending', 'public', 'private', 'draft', 'featured', 'recent', 'legacy', 'internal', 'external', 'daily', 'monthly', 'yearly', 'shared', 'local', 'global', 'bulk', 'quick', 'custom', 'partner'];
/** Module names: disjoint from the nouns, the sub-folders and SITE_AREA. */
export const MODULES = [
  'blog', 'gallery', 'shop', 'forum', 'calendar', 'wiki', 'news', 'jobs', 'helpdesk', 'newsletter',
  'billing', 'catalog', 'inventory', 'crm', 'cms', 'media', 'analytics', 'auth', 'search', 'social',
  'chat', 'mailer', 'cron', 'backup', 'audit', 'geo', 'i18n', 'seo', 'feeds', 'sitemap',
  'payments_gw', 'shipping', 'tax', 'loyalty', 'affiliates', 'kb', 'events_mod', 'booking', 'classifieds', 'directory',
];
const SUBDIRS = ['api', 'admin', 'reports', 'account'];
const PER_MODULE = 25;
const PER_SUBDIR = 50;

/** The fixed controllers the common header of every route file targets. */
const FIXED: { name: string; methods: string[] }[] = [
  { name: 'home', methods: ['index'] },
  { name: 'pages', methods: ['index', 'show', 'contact', 'send'] },
  { name: 'users', methods: ['index', 'login', 'logout', 'register', 'profile'] },
  { name: 'dashboard', methods: ['index'] },
];
export const HEADER_NAMES = ['about', 'contact', 'login', 'logout', 'register'];

const ucfirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** 2,000 controllers: 1,000 in 40 modules, 200 in sub-folders, 800 at the top of controllers/. */
export function planControllers(rnd: Random): Controller[] {
  const out: Controller[] = [];
  const methodsFor = (): string[] => {
    const extras = new Set<string>();
    const n = rnd.int(2, 5);
    while (extras.size < n) extras.add(rnd.pick(EXTRA_METHODS));
    return [...REST_METHODS, ...extras];
  };
  const named = (): string[] => (rnd.chance(0.15) ? [rnd.pick(HEADER_NAMES)] : []);
  for (const module of MODULES) {
    for (let i = 0; i < PER_MODULE; i++) {
      const name = i === 0 ? module : NOUNS[(i * 7) % NOUNS.length];
      out.push({ module, name, methods: methodsFor(), file: `modules/${module}/controllers/${ucfirst(name)}.php`, namedUses: named() });
    }
  }
  for (const dir of SUBDIRS) {
    for (let i = 0; i < PER_SUBDIR; i++) {
      const name = NOUNS[i % NOUNS.length];
      out.push({ dir, name, methods: methodsFor(), file: `controllers/${dir}/${ucfirst(name)}.php`, namedUses: named() });
    }
  }
  for (const f of FIXED) out.push({ name: f.name, methods: [...new Set([...f.methods, ...REST_METHODS])], file: `controllers/${ucfirst(f.name)}.php`, namedUses: [] });
  const topLevel = CONTROLLER_COUNT - out.length;
  const taken = new Set(FIXED.map((f) => f.name));
  for (let i = 0; out.length < CONTROLLER_COUNT; i++) {
    const noun = NOUNS[i % NOUNS.length];
    const name = i < NOUNS.length ? noun : `${QUALIFIERS[Math.floor(i / NOUNS.length - 1) % QUALIFIERS.length]}_${noun}`;
    if (taken.has(name)) continue;
    taken.add(name);
    out.push({ name, methods: methodsFor(), file: `controllers/${ucfirst(name)}.php`, namedUses: named() });
  }
  if (topLevel <= 0) throw new Error('controller plan: no room for top-level controllers');
  return out;
}

function methodBody(c: Controller, method: string, rnd: Random): string[] {
  const model = `${c.name.replace(/s$/, '')}_model`;
  switch (method) {
    case 'index':
      return [`        $this->load->view('${c.name}/index', array('items' => $this->${model}->find_all()));`];
    case 'show':
    case 'edit':
    case 'preview':
      return [`        $item = $this->${model}->find((int) $id);`, `        if (!$item) { show_404(); }`, `        $this->load->view('${c.name}/${method}', array('item' => $item));`];
    case 'create':
      return [`        $id = $this->${model}->insert($this->input->post());`, `        redirect('${c.name}/' . $id);`];
    case 'update':
      return [`        $this->${model}->update((int) $id, $this->input->input_stream());`, `        redirect('${c.name}/' . (int) $id);`];
    case 'delete':
      return [`        $this->${model}->delete((int) $id);`, `        redirect('${c.name}');`];
    default:
      return rnd.chance(0.5)
        ? [`        $this->load->view('${c.name}/${method}', array('items' => $this->${model}->find_all()));`]
        : [`        $data = $this->${model}->${method}($this->input->get());`, `        $this->output->set_content_type('application/json')->set_output(json_encode($data));`];
  }
}

/** The PHP source of a controller; `probe` adds a method that calls `Route::named('<probe>')`. */
export function controllerSource(c: Controller, rnd: Random, probe?: string): string {
  const cls = ucfirst(c.name);
  const base = c.module ? 'MX_Controller' : 'CI_Controller';
  const lines = [
    '<?php',
    "defined('BASEPATH') OR exit('No direct script access allowed');",
    '',
    '/**',
    ` * ${cls}${c.module ? ` (module ${c.module})` : c.dir ? ` (${c.dir})` : ''}: generated for the ci-routes benchmark.`,
    ' */',
    `class ${cls} extends ${base}`,
    '{',
    '    public function __construct()',
    '    {',
    '        parent::__construct();',
    `        $this->load->model('${c.name.replace(/s$/, '')}_model');`,
    "        $this->load->helper('url');",
    '    }',
  ];
  for (const m of c.methods) {
    const arg = ['show', 'edit', 'update', 'delete', 'preview'].includes(m) ? '$id' : '';
    lines.push('', `    public function ${m}(${arg})`, '    {', ...methodBody(c, m, rnd), '    }');
  }
  for (const name of c.namedUses) {
    lines.push('', `    public function go_${name}()`, '    {', `        redirect(Route::named('${name}'));`, '    }');
  }
  if (probe !== undefined) {
    lines.push('', '    public function probe()', '    {', `        redirect(Route::named('${probe}'));`, '    }');
  }
  lines.push('', '    protected function guard()', '    {', "        if (!$this->session->userdata('user_id')) { redirect('login'); }", '    }', '}', '');
  return lines.join('\n');
}
