<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Blog feed: the latest articles as Atom (GET and HEAD /feed).
 */
class Feed extends MX_Controller
{
    public function index()
    {
        $this->load->model('post_model');
        $this->output->set_content_type('application/atom+xml');
        $this->load->view('feed/atom', array('posts' => $this->post_model->find_latest(20)));
    }
}
