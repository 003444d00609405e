<?php
defined('BASEPATH') OR exit('No direct script access allowed');

// The settings the routes depend on (CodeIgniter's config.php holds many more).
$config['base_url'] = '';
$config['index_page'] = 'index.php';
$config['url_suffix'] = '';
// Modular Extensions' router adds this to controller names (Blog.php, not BlogController.php).
$config['controller_suffix'] = '';
// The characters a URI may hold (CodeIgniter's default): routes' reach is checked over these.
$config['permitted_uri_chars'] = 'a-z 0-9~%.:_\-';
