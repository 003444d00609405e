<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Blog, admin "content" context: admin/content/blog[/method/...].
 */
class Content extends MX_Controller
{
    public function index()
    {
        $this->load->model('post_model');
        $this->load->view('content/index', array('posts' => $this->post_model->find_all()));
    }

    public function edit($id)
    {
        $this->load->model('post_model');
        $this->load->view('content/edit', array('post' => $this->post_model->find((int) $id)));
    }
}
