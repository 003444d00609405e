<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/*
| -------------------------------------------------------------------------
| URI ROUTING
| -------------------------------------------------------------------------
| Routes for the Harbourside Rowing Club site: public pages, the blog and
| photo gallery modules, a small JSON API and the admin area (SITE_AREA).
|
| Routes are declared with the Route library and merged into $route by
| Route::map() at the bottom. CodeIgniter tries them in declaration order,
| so specific routes come first and wildcard routes after them.
*/

$route['default_controller'] = 'home';
$route['404_override'] = '';

// Static pages. The contact form is shown on GET and sent on POST.
Route::any('about', 'pages/show/about', array('as' => 'about'));
Route::get('contact', 'pages/contact', array('as' => 'contact'));
Route::post('contact', 'pages/send');

// Accounts: short public URLs; block() empties the controller's own paths (they then reach the home page).
Route::any('login', 'users/login', array('as' => 'login'));
Route::any('logout', 'users/logout', array('as' => 'logout'));
Route::any('register', 'users/register', array('as' => 'register'));
Route::block('users/login', 'users/register');

// Blog articles: the full REST set, served by the blog module's Posts controller.
Route::resources('articles', array('module' => 'blog', 'controller' => 'posts', 'constraint' => '(:num)'));
// Slug URLs (articles/12/spring-regatta). Declared after the resources so
// that articles/12/edit still reaches the edit form.
Route::get('articles/(:num)/(:any)', 'blog/posts/show/$1', array('as' => 'article'));

// Article feed. HEAD requests never see GET routes, so feed readers that
// probe with HEAD need a route of their own.
Route::get('feed', 'blog/feed/index', array('as' => 'feed'));
Route::head('feed', 'blog/feed/index');

// Public photo albums: gallery/<id> is handled by the module's own controller.
Route::get('gallery/(:num)', 'gallery/album/$1', array('as' => 'album'));

// JSON API.
Route::prefix('api', function () {
    Route::any('status', 'api/status/index', array('as' => 'api_status'));
    Route::get('articles', 'api/articles/index', array('as' => 'api_articles'));
    Route::post('articles', 'api/articles/create');
    Route::options('articles', 'api/articles/preflight');
    Route::get('articles/(:num)', 'api/articles/show/$1', array('as' => 'api_article'));
    Route::put('articles/(:num)', 'api/articles/replace/$1');
    Route::patch('articles/(:num)', 'api/articles/update/$1');
    Route::delete('articles/(:num)', 'api/articles/remove/$1');
    Route::options('articles/(:num)', 'api/articles/preflight/$1');

    // Versioned photo endpoints (api/v1/photos/7). The version segment is
    // matched but not passed on: offset 1 makes the photo id $2.
    Route::resources('(v[0-9]+)/photos', array(
        'module'     => 'gallery',
        'controller' => 'photos',
        'constraint' => '(:num)',
        'offset'     => 1,
    ));
});

// Load balancer health check: same handler as the API status route.
$route['health'] = Route::named('api_status');

// Admin area. Every module may contribute a Content and a Reports
// controller: admin/content/blog/edit/5 runs blog's Content::edit(5).
$route[SITE_AREA] = 'dashboard';
Route::prefix(SITE_AREA, function () {
    Route::context('content');
    Route::context('reports', array('home' => 'dashboard'));
});

// Feeds live in a file of their own.
require APPPATH . 'config/routes/api.php';

$route = Route::map($route);
$route['translate_uri_dashes'] = FALSE;
