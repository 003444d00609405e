<?php
defined('BASEPATH') OR exit('No direct script access allowed');

// Read-only article feeds, kept in their own file and included from
// routes.php: they share its $route and the Route library.
Route::get('feeds/articles', 'api/articles/index', array('as' => 'article_feed'));
Route::get('feeds/articles/(:num)', 'api/articles/show/$1');
